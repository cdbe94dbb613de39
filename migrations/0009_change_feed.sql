CREATE TABLE "change_feed_head" (
	"id" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"last_position" bigint DEFAULT 0 NOT NULL,
	"last_recorded_at" timestamp with time zone,
	"pruned_through" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "change_feed_head_single_row" CHECK ("change_feed_head"."id")
);
--> statement-breakpoint
CREATE TABLE "process_changes" (
	"position" bigint PRIMARY KEY NOT NULL,
	"recorded_at" timestamp with time zone NOT NULL,
	"customer_id" text NOT NULL,
	"numero" text NOT NULL,
	"kind" text NOT NULL,
	"status" text NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"details" jsonb,
	CONSTRAINT "process_changes_kind_check" CHECK (kind IN ('PROCESS_ADDED', 'STATUS_CHANGED', 'FOLLOW_ADDED', 'FOLLOW_REMOVED', 'CUSTOMS_CHANGED', 'PROCESS_UPDATED'))
);
--> statement-breakpoint
CREATE INDEX "process_changes_customer_position_idx" ON "process_changes" USING btree ("customer_id","position");--> statement-breakpoint
CREATE INDEX "process_changes_recorded_at_idx" ON "process_changes" USING btree ("recorded_at","position");--> statement-breakpoint
-- The head row every recording transaction locks and moves; processes synced before the feed
-- existed have no changes, and the feed starts with the next sync.
INSERT INTO "change_feed_head" ("id") VALUES (true);
