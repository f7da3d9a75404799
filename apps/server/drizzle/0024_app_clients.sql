CREATE TABLE "app_client" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"client_id" text NOT NULL,
	"client_type" text NOT NULL,
	"name" text NOT NULL,
	"tel_no" text,
	"regist_code" text NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"request_time" timestamp with time zone NOT NULL,
	"regist_time" timestamp with time zone,
	"reviewer_id" text,
	"reviewer_name" text,
	"result_desc" text,
	"staff_id" text,
	"staff_name" text,
	"send_time" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "app_client" ADD CONSTRAINT "app_client_staff_id_staff_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "app_client_client_id_key" ON "app_client" USING btree ("client_id");--> statement-breakpoint
CREATE INDEX "app_client_state_idx" ON "app_client" USING btree ("state");