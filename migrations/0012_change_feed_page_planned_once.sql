-- A page of the change feed and the feed's extent, read in one snapshot: up to `page_limit` changes
-- after `after_position` (NULL: from the oldest retained one) that `customer_ids` may see (a JSON
-- array of customer ids; NULL: every customer), joined into one JSON array text, and whether more
-- follow (one change more than the page is read for that).
--
-- A function so that the page is planned once per session. Pooled sessions run with
-- plan_cache_mode = force_custom_plan, which the list's statements need and which re-planned this
-- one on every execution: planning cost PostgreSQL more than executing (a page took 2.5 times the
-- CPU, docs/performance.md). Its best plan does not depend on the values bound (an ordered index
-- scan per visible customer, merged by position), so PL/pgSQL keeps each branch's generic plan for
-- the session. Without JIT whatever the caller's setting: the generic plan's estimates (the LIMIT
-- is unknown when it is planned) pass jit_above_cost, and compiling took 14 ms of a 0.5 ms page.
-- Staff and customers are two queries, each with its own plan: staff read the primary key in
-- order, customers the (customer, position) index, and one generic plan cannot do both.
CREATE FUNCTION change_feed_page(after_position bigint, page_limit integer, customer_ids json)
  RETURNS TABLE (last_position bigint, pruned_through bigint, page_last_position bigint, items text, has_more boolean)
  LANGUAGE plpgsql STABLE
  SET plan_cache_mode = force_generic_plan
  SET jit = off
AS $$
#variable_conflict use_column
BEGIN
  IF customer_ids IS NULL THEN
    RETURN QUERY
      SELECT h.last_position, h.pruned_through, p.page_last_position, p.items, p.has_more
        FROM change_feed_head h
        CROSS JOIN LATERAL (
          SELECT max(r.position) FILTER (WHERE r.n <= page_limit) AS page_last_position,
                 string_agg(r.body, ',' ORDER BY r.position) FILTER (WHERE r.n <= page_limit) AS items,
                 count(*) > page_limit AS has_more
            FROM (SELECT c.position, c.body, row_number() OVER (ORDER BY c.position) AS n
                    FROM (SELECT pc.position, pc.body FROM process_changes pc
                           WHERE pc.position > coalesce(after_position, h.pruned_through)
                           ORDER BY pc.position LIMIT page_limit + 1) AS c) AS r
        ) AS p;
  ELSE
    RETURN QUERY
      SELECT h.last_position, h.pruned_through, p.page_last_position, p.items, p.has_more
        FROM change_feed_head h
        CROSS JOIN LATERAL (
          SELECT max(r.position) FILTER (WHERE r.n <= page_limit) AS page_last_position,
                 string_agg(r.body, ',' ORDER BY r.position) FILTER (WHERE r.n <= page_limit) AS items,
                 count(*) > page_limit AS has_more
            FROM (SELECT c.position, c.body, row_number() OVER (ORDER BY c.position) AS n
                    FROM (SELECT pc.position, pc.body
                            FROM json_array_elements_text(customer_ids) AS v(customer_id)
                            CROSS JOIN LATERAL (
                              SELECT cc.position, cc.body FROM process_changes cc
                               WHERE cc.customer_id = v.customer_id
                                 AND cc.position > coalesce(after_position, h.pruned_through)
                               ORDER BY cc.position LIMIT page_limit + 1) AS pc
                           ORDER BY pc.position LIMIT page_limit + 1) AS c) AS r
        ) AS p;
  END IF;
END
$$;
