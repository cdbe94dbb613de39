CREATE TABLE "process_list_items" (
	"numero" text PRIMARY KEY NOT NULL,
	"body" text NOT NULL,
	"digest" text GENERATED ALWAYS AS (md5(body)) STORED NOT NULL
);
--> statement-breakpoint
ALTER TABLE "process_list_items" ADD CONSTRAINT "process_list_items_numero_processes_numero_fk" FOREIGN KEY ("numero") REFERENCES "public"."processes"("numero") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
-- A process as the list's item, the JSON text the API sends: compact (row_to_json), members in
-- the order of ProcessSummaryDto, instants in UTC, the whole follow-up history by time then id.
-- Rendered when sync writes a process instead of on every read, where a page of 100 items
-- aggregated some 2,000 events. This is the one rendering: a change to the item's shape is a new
-- migration that replaces this function and empties the table (TRUNCATE, a moment's lock). The
-- items of processes already stored are rendered in the background after start-up, in batches
-- (ListItemsBackfill), and a read renders an item still missing itself.
CREATE FUNCTION process_list_item(p processes, owner customers) RETURNS text
  LANGUAGE sql STABLE PARALLEL SAFE
  RETURN (
    SELECT row_to_json(item)::text
      FROM (
        SELECT p.numero AS numero,
               p.status AS status,
               to_char(p.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "updatedAt",
               row_to_json(summary) AS summary,
               follow.events -> -1 AS "lastFollow",
               follow.events AS follow
          FROM (
            SELECT p.type AS type,
                   p.mode AS mode,
                   row_to_json(customer) AS customer,
                   p.customer_reference AS "customerReference",
                   row_to_json(origin) AS origin,
                   row_to_json(destination) AS destination,
                   p.shipment_date AS "shipmentDate",
                   p.eta AS eta,
                   p.arrival_date AS "arrivalDate",
                   coalesce((SELECT array_agg(k.container_number ORDER BY k.position)
                               FROM process_containers k
                              WHERE k.process_numero = p.numero), '{}') AS containers,
                   p.customs_channel AS "customsChannel",
                   p.free_time_ends_at AS "freeTimeEndsAt",
                   p.follow_count AS "followCount"
              FROM (SELECT owner.id AS id, owner.name AS name) customer,
                   (SELECT p.origin_code AS code, p.origin_name AS name) origin,
                   (SELECT p.destination_code AS code, p.destination_name AS name) destination
          ) summary,
          (SELECT coalesce(array_to_json(array_agg(row_to_json(event) ORDER BY e.occurred_at, e.id)), '[]') AS events
             FROM follow_up_events e
             -- The location has no FROM of its own, so the planner folds it into the event's row.
             CROSS JOIN LATERAL (
               SELECT e.id,
                      e.code,
                      e.description,
                      to_char(e.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "occurredAt",
                      CASE WHEN e.location_code IS NULL THEN NULL ELSE row_to_json(place) END AS location
                 FROM (SELECT e.location_code AS code, e.location_name AS name) place
             ) event
            WHERE e.process_numero = p.numero) follow
      ) item
  );
