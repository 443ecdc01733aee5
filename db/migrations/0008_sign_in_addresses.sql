CREATE TABLE "sign_in_addresses" (
	"user_id" text NOT NULL,
	"address" text NOT NULL,
	"last_success_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "sign_in_addresses_user_id_address_pk" PRIMARY KEY("user_id","address")
);
--> statement-breakpoint
ALTER TABLE "sign_in_addresses" ADD CONSTRAINT "sign_in_addresses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sign_in_addresses_last_success_idx" ON "sign_in_addresses" USING btree ("last_success_at");