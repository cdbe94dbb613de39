ALTER TABLE "processes" ADD COLUMN "customs" jsonb;--> statement-breakpoint
ALTER TABLE "processes" ADD COLUMN "free_time_ends_at" date;