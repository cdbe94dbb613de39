ALTER TABLE "sync_state" ADD COLUMN "pass_cursor" text;--> statement-breakpoint
ALTER TABLE "sync_state" ADD COLUMN "pass_updated_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sync_state" ADD COLUMN "pass_high_water" timestamp with time zone;