CREATE TABLE "bank_directives" (
	"bank_id" text NOT NULL,
	"name" text NOT NULL,
	"entry" jsonb NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "bank_directives_bank_id_name_pk" PRIMARY KEY("bank_id","name")
);
--> statement-breakpoint
CREATE TABLE "bank_mental_models" (
	"bank_id" text NOT NULL,
	"id" text NOT NULL,
	"entry" jsonb NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "bank_mental_models_bank_id_id_pk" PRIMARY KEY("bank_id","id")
);
--> statement-breakpoint
CREATE TABLE "bank_policies" (
	"bank_id" text PRIMARY KEY NOT NULL,
	"document" jsonb NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "banks" (
	"id" text PRIMARY KEY NOT NULL,
	"owner" text,
	"name" text NOT NULL,
	"config" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"last_applied_template" text,
	"last_applied_revision" text,
	"last_applied_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "bank_directives" ADD CONSTRAINT "bank_directives_bank_id_banks_id_fk" FOREIGN KEY ("bank_id") REFERENCES "public"."banks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_mental_models" ADD CONSTRAINT "bank_mental_models_bank_id_banks_id_fk" FOREIGN KEY ("bank_id") REFERENCES "public"."banks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "banks" ADD CONSTRAINT "banks_owner_users_id_fk" FOREIGN KEY ("owner") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;