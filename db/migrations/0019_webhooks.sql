CREATE TABLE "webhook_deliveries" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"id" text DEFAULT ('dlv_' || replace(gen_random_uuid()::text, '-', '')) NOT NULL,
	"webhook_id" text NOT NULL,
	"event_id" text NOT NULL,
	"attempt" integer NOT NULL,
	"retries" boolean DEFAULT true NOT NULL,
	"status" text NOT NULL,
	"due_at" timestamp (3) with time zone NOT NULL,
	"at" timestamp (3) with time zone,
	"response_status" integer,
	"duration_ms" integer,
	"error" text,
	"response_body" text,
	"claimed_by" text,
	"claimed_until" timestamp (3) with time zone,
	CONSTRAINT "webhook_deliveries_id_unique" UNIQUE("id")
);
--> statement-breakpoint
CREATE TABLE "webhook_events" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhooks" (
	"id" text PRIMARY KEY NOT NULL,
	"scope" text NOT NULL,
	"owner" text,
	"url" text NOT NULL,
	"description" text,
	"events" text[] NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"disabled_reason" text,
	"failing_since" timestamp (3) with time zone,
	"secret_encrypted" text NOT NULL,
	"previous_secret_encrypted" text,
	"previous_secret_expires_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "expiry_notice_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_webhook_id_webhooks_id_fk" FOREIGN KEY ("webhook_id") REFERENCES "public"."webhooks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_event_id_webhook_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."webhook_events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhooks" ADD CONSTRAINT "webhooks_owner_users_id_fk" FOREIGN KEY ("owner") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("due_at") WHERE "webhook_deliveries"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "webhook_deliveries_webhook_idx" ON "webhook_deliveries" USING btree ("webhook_id","seq");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_event_idx" ON "webhook_deliveries" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_at_idx" ON "webhook_deliveries" USING btree ("due_at");--> statement-breakpoint
CREATE INDEX "webhook_events_created_idx" ON "webhook_events" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "webhooks_owner_idx" ON "webhooks" USING btree ("scope","owner","created_at");