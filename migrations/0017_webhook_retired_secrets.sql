CREATE TABLE "webhook_retired_secrets" (
	"subscription_id" uuid NOT NULL,
	"secret" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "webhook_retired_secrets" ADD CONSTRAINT "webhook_retired_secrets_subscription_id_webhook_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."webhook_subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_retired_secrets_subscription_idx" ON "webhook_retired_secrets" USING btree ("subscription_id","expires_at");--> statement-breakpoint
-- The secret a rotation before this migration replaced goes on signing as long as it would have.
-- Its columns stay (the release before reads them during a rolling upgrade), to go in a later one.
INSERT INTO "webhook_retired_secrets" ("subscription_id", "secret", "expires_at")
SELECT "id", "previous_secret", "previous_secret_expires_at" FROM "webhook_subscriptions"
 WHERE "previous_secret" IS NOT NULL AND "previous_secret_expires_at" > now();
