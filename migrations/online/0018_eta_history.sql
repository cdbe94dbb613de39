-- After 0018's commit, outside any transaction: neither blocks reads nor sync (SHARE UPDATE
-- EXCLUSIVE on the table, while 1M processes are read once for each index).
CREATE INDEX CONCURRENTLY IF NOT EXISTS "processes_customer_eta_idx" ON "processes" USING btree ("customer_id","eta","numero");--> statement-breakpoint
CREATE INDEX CONCURRENTLY IF NOT EXISTS "processes_eta_idx" ON "processes" USING btree ("eta","numero");--> statement-breakpoint
CREATE INDEX CONCURRENTLY IF NOT EXISTS "processes_customer_free_time_idx" ON "processes" USING btree ("customer_id","free_time_ends_at","numero") WHERE "processes"."free_time_ends_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX CONCURRENTLY IF NOT EXISTS "processes_free_time_idx" ON "processes" USING btree ("free_time_ends_at","numero") WHERE "processes"."free_time_ends_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX CONCURRENTLY IF NOT EXISTS "processes_customer_eta_delay_idx" ON "processes" USING btree ("customer_id",("eta" - "original_eta")) WHERE "processes"."eta" > "processes"."original_eta";--> statement-breakpoint
CREATE INDEX CONCURRENTLY IF NOT EXISTS "processes_eta_delay_idx" ON "processes" USING btree (("eta" - "original_eta")) WHERE "processes"."eta" > "processes"."original_eta";--> statement-breakpoint
-- Validation reads every row but takes locks that let reads and writes go on (and is a no-op
-- when the constraint is valid already).
ALTER TABLE "process_eta_history" VALIDATE CONSTRAINT "process_eta_history_process_numero_processes_numero_fk";--> statement-breakpoint
ALTER TABLE "process_changes" VALIDATE CONSTRAINT "process_changes_kind_check";
