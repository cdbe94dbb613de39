-- Each change is stored as the feed sends it, cursor included, rendered once when it is recorded:
-- a page is then the join of stored texts. Rendering on every read cost PostgreSQL about 1 ms of
-- CPU a page of 100 (docs/performance.md).
--
-- A feed position as its opaque cursor: the position's 8 bytes (int8send is big-endian) and a
-- checksum linear in its two 32-bit halves, in base64url. The service decodes it; a spec checks
-- that both write the same cursors byte for byte.
CREATE FUNCTION change_cursor(feed_position bigint) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN translate(
    encode(int8send(feed_position)
           || substr(int8send(((feed_position & 4294967295) * 1013904243 + (feed_position >> 32) * 668265263 + 1779033703)
                              & 4294967295), 5, 4),
           'base64'),
    '+/', '-_');
--> statement-breakpoint
-- A change as the feed's JSON: the common members in order, then the kind's own from `details`.
-- IMMUTABLE although to_char and row_to_json are only STABLE: the instants are formatted in UTC
-- with no locale-dependent field, so the text depends on the arguments alone, as a stored
-- generated column needs.
CREATE FUNCTION change_json(
  feed_position bigint, recorded_at timestamptz, kind text, numero text, status text, updated_at timestamptz,
  details json
) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN (
    SELECT left(row_to_json(common)::text, -1) || coalesce(',' || substr(nullif(details::text, '{}'), 2), '}')
      FROM (SELECT change_cursor(feed_position) AS cursor,
                   to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "recordedAt",
                   kind, numero, status,
                   to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "updatedAt") AS common
  );
--> statement-breakpoint
-- Rewrites the table once, rendering every retained change (about 2 minutes for 10 M changes).
ALTER TABLE "process_changes" ADD COLUMN "body" text GENERATED ALWAYS AS (change_json(position, recorded_at, kind, numero, status, updated_at, details)) STORED NOT NULL;
