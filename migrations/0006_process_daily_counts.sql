CREATE TABLE "process_daily_counts" (
	"customer_id" text NOT NULL,
	"status" text NOT NULL,
	"day" date NOT NULL,
	"total" integer NOT NULL,
	CONSTRAINT "process_daily_counts_customer_id_status_day_pk" PRIMARY KEY("customer_id","status","day")
);
--> statement-breakpoint
CREATE INDEX "process_daily_counts_day_idx" ON "process_daily_counts" USING btree ("day","status");--> statement-breakpoint
-- As process_counts (0004), per UTC day of updated_at: an UPDATE counts its new rows in and its
-- old rows out, so a process whose updated_at moves changes days.
CREATE FUNCTION process_daily_counts_shift() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO process_daily_counts AS counts (customer_id, status, day, total)
  SELECT customer_id, status, (updated_at AT TIME ZONE 'UTC')::date, count(*) * TG_ARGV[0]::int
    FROM changed
   GROUP BY 1, 2, 3
   ORDER BY 1, 2, 3
  ON CONFLICT (customer_id, status, day) DO UPDATE SET total = counts.total + excluded.total;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION process_daily_counts_reset() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM process_daily_counts;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER processes_daily_counts_inserted AFTER INSERT ON processes
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION process_daily_counts_shift('1');
--> statement-breakpoint
CREATE TRIGGER processes_daily_counts_updated_added AFTER UPDATE ON processes
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION process_daily_counts_shift('1');
--> statement-breakpoint
CREATE TRIGGER processes_daily_counts_updated_removed AFTER UPDATE ON processes
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION process_daily_counts_shift('-1');
--> statement-breakpoint
CREATE TRIGGER processes_daily_counts_deleted AFTER DELETE ON processes
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION process_daily_counts_shift('-1');
--> statement-breakpoint
CREATE TRIGGER processes_daily_counts_truncated AFTER TRUNCATE ON processes
  FOR EACH STATEMENT EXECUTE FUNCTION process_daily_counts_reset();
--> statement-breakpoint
-- Processes synced before this migration; the triggers above already hold writers off until commit.
INSERT INTO process_daily_counts (customer_id, status, day, total)
SELECT customer_id, status, (updated_at AT TIME ZONE 'UTC')::date, count(*)
  FROM processes GROUP BY 1, 2, 3;
