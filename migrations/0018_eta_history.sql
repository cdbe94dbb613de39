-- Built to hold no lock that blocks reads or sync for more than a moment on 1M processes: first
-- what locks nothing others use (a new table, filled from a snapshot of processes), then the
-- statements that take ACCESS EXCLUSIVE or SHARE ROW EXCLUSIVE locks, each instant, held only until
-- the commit right after. The indexes on processes and the validation of the two constraints
-- (a scan of each table) are the online step, run after the commit:
-- migrations/online/0018_eta_history.sql.
CREATE TABLE "process_eta_history" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "process_eta_history_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"process_numero" text NOT NULL,
	"eta" date,
	"recorded_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
-- The ETA history starts from the ETA each process has now, as recorded when sync last wrote it:
-- nothing earlier is known, so nothing earlier is invented. `original_eta` stays null until sync
-- next writes the process (an update of every row would hold sync back); until then the stored
-- `eta` is the original one, which is what `coalesce(original_eta, eta)` reads.
INSERT INTO process_eta_history (process_numero, eta, recorded_at)
SELECT numero, eta, synced_at FROM processes WHERE eta IS NOT NULL ORDER BY numero;
--> statement-breakpoint
CREATE INDEX "process_eta_history_process_idx" ON "process_eta_history" USING btree ("process_numero","id");--> statement-breakpoint
ALTER TABLE "processes" ADD COLUMN "original_eta" date;--> statement-breakpoint
-- Processes are never deleted, and none can be from here on (the lock above): every history row
-- keeps its process, which the online step's validation confirms.
ALTER TABLE "process_eta_history" ADD CONSTRAINT "process_eta_history_process_numero_processes_numero_fk" FOREIGN KEY ("process_numero") REFERENCES "public"."processes"("numero") ON DELETE cascade ON UPDATE no action NOT VALID;--> statement-breakpoint
ALTER TABLE "process_changes" DROP CONSTRAINT "process_changes_kind_check";--> statement-breakpoint
-- New rows are checked at once; the rows already there (10M) by the online step.
ALTER TABLE "process_changes" ADD CONSTRAINT "process_changes_kind_check" CHECK (kind IN ('PROCESS_ADDED', 'STATUS_CHANGED', 'FOLLOW_ADDED', 'FOLLOW_REMOVED', 'CUSTOMS_CHANGED', 'ETA_CHANGED', 'PROCESS_UPDATED')) NOT VALID;--> statement-breakpoint
-- The list item gains `summary.originalEta` and `summary.etaDelayDays` (after `eta`).
CREATE OR REPLACE FUNCTION process_list_item(p processes, owner customers) RETURNS text
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
                   coalesce(p.original_eta, p.eta) AS "originalEta",
                   p.eta - coalesce(p.original_eta, p.eta) AS "etaDelayDays",
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
--> statement-breakpoint
-- Every stored item is rendered again in the new shape, in the background after start-up
-- (ListItemsBackfill), and by any read of this release that meets one not rendered yet. They stay
-- until then: the release before this one reads them (it has no rendering of its own) while both
-- answer. Existing rows read as shape 15 (no storage rewritten); every item written from now on,
-- by either release, is rendered by the function above and takes the default, 18.
ALTER TABLE "process_list_items" ADD COLUMN "shape" smallint DEFAULT 15 NOT NULL;--> statement-breakpoint
ALTER TABLE "process_list_items" ALTER COLUMN "shape" SET DEFAULT 18;
