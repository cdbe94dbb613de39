-- Webhook subscriptions and their deliveries log. A subscription keeps its position in the change
-- feed (the last change delivered); deliverers lease a subscription (lease_owner, lease_expires_at)
-- so that one instance at a time works it, and advance the position only after a 2xx, in the same
-- transaction as the attempt's row in webhook_deliveries. Secrets are stored AES-256-GCM encrypted.
CREATE TABLE "webhook_deliveries" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "webhook_deliveries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"subscription_id" uuid NOT NULL,
	"message_id" text NOT NULL,
	"kind" text NOT NULL,
	"attempt" integer NOT NULL,
	"attempted_at" timestamp with time zone NOT NULL,
	"response_status" integer,
	"duration_ms" integer NOT NULL,
	"error" text,
	"next_attempt_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "webhook_subscriptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid NOT NULL,
	"url" text NOT NULL,
	"description" text,
	"kinds" json,
	"customer_ids" json,
	"status" text DEFAULT 'ACTIVE' NOT NULL,
	"disabled_reason" text,
	"position" bigint NOT NULL,
	"failed_attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"secret" text NOT NULL,
	"previous_secret" text,
	"previous_secret_expires_at" timestamp with time zone,
	"lease_owner" text,
	"lease_expires_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "webhook_subscriptions_status_check" CHECK (status IN ('ACTIVE', 'PAUSED', 'DISABLED')),
	CONSTRAINT "webhook_subscriptions_failed_attempts_check" CHECK ("webhook_subscriptions"."failed_attempts" >= 0)
);
--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_subscription_id_webhook_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."webhook_subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_subscriptions" ADD CONSTRAINT "webhook_subscriptions_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_subscription_idx" ON "webhook_deliveries" USING btree ("subscription_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "webhook_deliveries_attempted_at_idx" ON "webhook_deliveries" USING btree ("attempted_at");--> statement-breakpoint
CREATE INDEX "webhook_subscriptions_owner_idx" ON "webhook_subscriptions" USING btree ("owner_id","created_at");--> statement-breakpoint
CREATE INDEX "webhook_subscriptions_due_idx" ON "webhook_subscriptions" USING btree ("next_attempt_at") WHERE "webhook_subscriptions"."status" = 'ACTIVE';