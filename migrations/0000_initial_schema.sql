CREATE TABLE "customers" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "follow_up_events" (
	"process_numero" text NOT NULL,
	"id" text NOT NULL,
	"code" text NOT NULL,
	"description" text NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"location_code" text,
	"location_name" text,
	CONSTRAINT "follow_up_events_process_numero_id_pk" PRIMARY KEY("process_numero","id"),
	CONSTRAINT "follow_up_events_code_check" CHECK (code IN ('PROCESS_OPENED', 'BOOKING_CONFIRMED', 'CARGO_RECEIVED', 'GATE_IN', 'LOADED', 'DEPARTED', 'TRANSSHIPMENT', 'ARRIVED', 'DISCHARGED', 'DOCUMENTS_RECEIVED', 'CUSTOMS_DECLARATION_REGISTERED', 'CUSTOMS_CHANNEL_ASSIGNED', 'CUSTOMS_CLEARED', 'GATE_OUT', 'DELIVERED', 'CANCELLED', 'NOTE')),
	CONSTRAINT "follow_up_events_location_check" CHECK (("follow_up_events"."location_code" IS NULL) = ("follow_up_events"."location_name" IS NULL))
);
--> statement-breakpoint
CREATE TABLE "process_containers" (
	"process_numero" text NOT NULL,
	"container_number" text NOT NULL,
	"position" smallint NOT NULL,
	CONSTRAINT "process_containers_process_numero_container_number_pk" PRIMARY KEY("process_numero","container_number"),
	CONSTRAINT "process_containers_number_format" CHECK ("process_containers"."container_number" ~ '^[A-Z]{4}[0-9]{7}$')
);
--> statement-breakpoint
CREATE TABLE "processes" (
	"numero" text PRIMARY KEY NOT NULL,
	"customer_id" text NOT NULL,
	"status" text NOT NULL,
	"type" text NOT NULL,
	"mode" text NOT NULL,
	"customer_reference" text,
	"origin_code" text NOT NULL,
	"origin_name" text NOT NULL,
	"destination_code" text NOT NULL,
	"destination_name" text NOT NULL,
	"shipment_date" date,
	"eta" date,
	"arrival_date" date,
	"customs_channel" text,
	"follow_count" integer NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"synced_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "processes_status_check" CHECK (status IN ('OPEN', 'BOOKED', 'IN_TRANSIT', 'ARRIVED', 'CUSTOMS_CLEARANCE', 'CLEARED', 'DELIVERED', 'CANCELLED')),
	CONSTRAINT "processes_type_check" CHECK (type IN ('IMPORT', 'EXPORT')),
	CONSTRAINT "processes_mode_check" CHECK (mode IN ('SEA', 'AIR', 'ROAD')),
	CONSTRAINT "processes_customs_channel_check" CHECK (customs_channel IN ('GREEN', 'YELLOW', 'RED', 'GRAY')),
	CONSTRAINT "processes_follow_count_check" CHECK ("processes"."follow_count" >= 0),
	CONSTRAINT "processes_numero_format" CHECK ("processes"."numero" ~ '^[A-Za-z0-9._-]{1,40}$')
);
--> statement-breakpoint
CREATE TABLE "sync_state" (
	"stream" text PRIMARY KEY NOT NULL,
	"watermark" timestamp with time zone,
	"last_started_at" timestamp with time zone,
	"last_succeeded_at" timestamp with time zone,
	"last_error" text,
	"last_processed_count" integer
);
--> statement-breakpoint
CREATE TABLE "user_customers" (
	"user_id" uuid NOT NULL,
	"customer_id" text NOT NULL,
	CONSTRAINT "user_customers_user_id_customer_id_pk" PRIMARY KEY("user_id","customer_id")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"username" text NOT NULL,
	"password_hash" text NOT NULL,
	"role" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_role_check" CHECK (role IN ('customer', 'staff')),
	CONSTRAINT "users_username_length" CHECK (char_length("users"."username") BETWEEN 1 AND 128)
);
--> statement-breakpoint
ALTER TABLE "follow_up_events" ADD CONSTRAINT "follow_up_events_process_numero_processes_numero_fk" FOREIGN KEY ("process_numero") REFERENCES "public"."processes"("numero") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "process_containers" ADD CONSTRAINT "process_containers_process_numero_processes_numero_fk" FOREIGN KEY ("process_numero") REFERENCES "public"."processes"("numero") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "processes" ADD CONSTRAINT "processes_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_customers" ADD CONSTRAINT "user_customers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_customers" ADD CONSTRAINT "user_customers_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "follow_up_events_timeline_idx" ON "follow_up_events" USING btree ("process_numero","occurred_at","id");--> statement-breakpoint
CREATE INDEX "process_containers_container_number_idx" ON "process_containers" USING btree ("container_number");--> statement-breakpoint
CREATE UNIQUE INDEX "processes_numero_ci_key" ON "processes" USING btree (lower("numero"));--> statement-breakpoint
CREATE UNIQUE INDEX "users_username_key" ON "users" USING btree ("username");