CREATE TABLE "device_pin_secret" (
	"device_id" text PRIMARY KEY NOT NULL,
	"secret" text NOT NULL,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "offline_pin" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"station_id" text NOT NULL,
	"device_id" text NOT NULL,
	"device_name" text NOT NULL,
	"type" text NOT NULL,
	"algorithm" text DEFAULT 'totp' NOT NULL,
	"storage" text DEFAULT 'derived' NOT NULL,
	"stored_id" integer,
	"pending_code" text,
	"delivery_command_id" text,
	"ref" text NOT NULL,
	"start_hour" integer NOT NULL,
	"start_time" timestamp with time zone NOT NULL,
	"end_time" timestamp with time zone NOT NULL,
	"weekdays" integer DEFAULT 0 NOT NULL,
	"activation_deadline" timestamp with time zone NOT NULL,
	"generator_id" text,
	"generator_name" text,
	"user_id" text NOT NULL,
	"user_name" text,
	"reason" text NOT NULL,
	"task_id" text,
	"task_name" text,
	"authorization_id" text,
	"usage_time" timestamp with time zone,
	"last_used_time" timestamp with time zone,
	"use_count" integer DEFAULT 0 NOT NULL,
	"revoked_at" timestamp with time zone,
	"revoked_by_name" text,
	"deletion_command_id" text,
	"deletion_confirmed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pin_erase_code" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"device_id" text NOT NULL,
	"hour" integer NOT NULL,
	"issued_by_name" text,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "device_pin_secret" ADD CONSTRAINT "device_pin_secret_device_id_device_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."device"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "offline_pin_device_ref_key" ON "offline_pin" USING btree ("device_id","ref");--> statement-breakpoint
CREATE INDEX "offline_pin_time_idx" ON "offline_pin" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "offline_pin_delivery_idx" ON "offline_pin" USING btree ("delivery_command_id") WHERE "offline_pin"."delivery_command_id" is not null;--> statement-breakpoint
CREATE INDEX "offline_pin_deletion_idx" ON "offline_pin" USING btree ("deletion_command_id") WHERE "offline_pin"."deletion_command_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "pin_erase_code_device_hour_key" ON "pin_erase_code" USING btree ("device_id","hour");