-- process_counts gains type, mode and customs channel ('NONE' when the process has none), so that
-- lists filtered by them are totalled from kept rows too. Rebuilt rather than altered: its rows
-- must be recounted under the new key anyway.
DROP TABLE "process_counts";--> statement-breakpoint
CREATE TABLE "process_counts" (
	"customer_id" text NOT NULL,
	"status" text NOT NULL,
	"type" text NOT NULL,
	"mode" text NOT NULL,
	"customs_channel" text NOT NULL,
	"total" integer NOT NULL,
	CONSTRAINT "process_counts_customer_id_status_type_mode_customs_channel_pk" PRIMARY KEY("customer_id","status","type","mode","customs_channel")
);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION process_counts_shift() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO process_counts AS counts (customer_id, status, type, mode, customs_channel, total)
  SELECT customer_id, status, type, mode, coalesce(customs_channel, 'NONE'), count(*) * TG_ARGV[0]::int
    FROM changed
   GROUP BY 1, 2, 3, 4, 5
   ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT (customer_id, status, type, mode, customs_channel)
  DO UPDATE SET total = counts.total + excluded.total;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- The triggers of 0004 call the function above by name and stay as they are; the table is new, so
-- the processes already synced are counted in again (the lock keeps writers off until commit).
LOCK TABLE "processes" IN SHARE MODE;--> statement-breakpoint
INSERT INTO process_counts (customer_id, status, type, mode, customs_channel, total)
SELECT customer_id, status, type, mode, coalesce(customs_channel, 'NONE'), count(*)
  FROM processes GROUP BY 1, 2, 3, 4, 5;--> statement-breakpoint
CREATE INDEX "processes_customer_channel_updated_idx" ON "processes" USING btree ("customer_id",coalesce("customs_channel", 'NONE'),"updated_at" DESC NULLS LAST,"numero");
