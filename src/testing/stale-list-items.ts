import { sql } from 'drizzle-orm';
import type { DatabaseService } from '../database/database.service.js';
import { rowsOf } from '../database/sql-rows.js';

/**
 * The processes whose stored list item is missing or differs from what rendering their rows now
 * gives: none, wherever processes are written.
 */
export async function staleListItems(database: DatabaseService): Promise<string[]> {
  const rows = await rowsOf<{ numero: string }>(
    database.db,
    sql`SELECT p.numero
          FROM processes p
          JOIN customers c ON c.id = p.customer_id
          LEFT JOIN process_list_items i ON i.numero = p.numero
         WHERE i.body IS DISTINCT FROM process_list_item(p, c)
         ORDER BY p.numero`,
  );
  return rows.map((row) => row.numero);
}
