CREATE TABLE "process_counts" (
	"customer_id" text NOT NULL,
	"status" text NOT NULL,
	"total" integer NOT NULL,
	CONSTRAINT "process_counts_customer_id_status_pk" PRIMARY KEY("customer_id","status")
);
--> statement-breakpoint
-- Statement-level triggers with transition tables: one set-based upsert per write statement,
-- whatever its row count (a sync page, a COPY). An UPDATE counts its new rows in and its old rows
-- out, so only a change of customer or status moves a total.
CREATE FUNCTION process_counts_shift() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO process_counts AS counts (customer_id, status, total)
  SELECT customer_id, status, count(*) * TG_ARGV[0]::int
    FROM changed
   GROUP BY customer_id, status
   ORDER BY customer_id, status
  ON CONFLICT (customer_id, status) DO UPDATE SET total = counts.total + excluded.total;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION process_counts_reset() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM process_counts;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER processes_counts_inserted AFTER INSERT ON processes
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION process_counts_shift('1');
--> statement-breakpoint
CREATE TRIGGER processes_counts_updated_added AFTER UPDATE ON processes
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION process_counts_shift('1');
--> statement-breakpoint
CREATE TRIGGER processes_counts_updated_removed AFTER UPDATE ON processes
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION process_counts_shift('-1');
--> statement-breakpoint
CREATE TRIGGER processes_counts_deleted AFTER DELETE ON processes
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION process_counts_shift('-1');
--> statement-breakpoint
CREATE TRIGGER processes_counts_truncated AFTER TRUNCATE ON processes
  FOR EACH STATEMENT EXECUTE FUNCTION process_counts_reset();
--> statement-breakpoint
-- Processes synced before this migration; the triggers above already hold writers off until commit.
INSERT INTO process_counts (customer_id, status, total)
SELECT customer_id, status, count(*) FROM processes GROUP BY customer_id, status;
