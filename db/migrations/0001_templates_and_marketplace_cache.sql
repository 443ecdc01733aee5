CREATE TABLE "marketplace_cache" (
	"cache_key" text PRIMARY KEY NOT NULL,
	"url" text NOT NULL,
	"body" text NOT NULL,
	"etag" text,
	"last_modified" text,
	"fetched_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "templates" (
	"row_id" text PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"id" text NOT NULL,
	"scope" text NOT NULL,
	"owner" text,
	"name" text NOT NULL,
	"description" text,
	"category" text,
	"integrations" text[] DEFAULT '{}'::text[] NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"manifest" jsonb NOT NULL,
	"source_name" text,
	"source_scope" text,
	"source_owner" text,
	"source_template_id" text,
	"source_revision" text,
	"locally_modified" boolean DEFAULT false NOT NULL,
	"installed_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "templates_id_scope_owner_key" UNIQUE NULLS NOT DISTINCT("id","scope","owner")
);
--> statement-breakpoint
ALTER TABLE "templates" ADD CONSTRAINT "templates_owner_users_id_fk" FOREIGN KEY ("owner") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "templates_scope_owner_category_idx" ON "templates" USING btree ("scope","owner","category","id");--> statement-breakpoint
CREATE INDEX "templates_tags_idx" ON "templates" USING gin ("tags");