import type pg from 'pg';

/**
 * The settings every pooled session runs with. Set per session rather than as startup options,
 * which an `options` parameter in DATABASE_URL would silently replace.
 */
export async function applySessionSettings(
  client: pg.ClientBase,
  statementTimeoutMs?: number,
  customPlans = true,
): Promise<void> {
  // The list statements are prepared, and their best plan depends on the values bound
  // (LIMIT/OFFSET, the date range): the generic plan PostgreSQL may switch to after five
  // executions cost the filtered list 30%.
  if (customPlans) await client.query('SET plan_cache_mode = force_custom_plan');
  // Every statement here runs in milliseconds; JIT compiling one costs 50-250 ms. A table without
  // statistics is enough to pass jit_above_cost: sync's read of the stored copies during a first
  // sync, or a feed page joined with a never-analysed `change_feed_head` (estimated at 1,540 rows
  // for its one), which then took 240 ms instead of 0.5.
  await client.query('SET jit = off');
  if (statementTimeoutMs !== undefined) {
    await client.query(`SET statement_timeout = ${Math.trunc(statementTimeoutMs)}`);
  }
}
