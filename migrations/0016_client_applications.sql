CREATE TABLE "client_applications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid NOT NULL,
	"client_id" text NOT NULL,
	"name" text NOT NULL,
	"scopes" json NOT NULL,
	"customer_ids" json,
	"secret_hash" text NOT NULL,
	"previous_secret_hash" text,
	"previous_secret_expires_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"last_used_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "client_applications" ADD CONSTRAINT "client_applications_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "client_applications_client_id_key" ON "client_applications" USING btree ("client_id");--> statement-breakpoint
CREATE INDEX "client_applications_owner_idx" ON "client_applications" USING btree ("owner_id","created_at");