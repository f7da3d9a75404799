CREATE TABLE "operation_record" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"station_id" text NOT NULL,
	"device_id" text,
	"device_name" text NOT NULL,
	"device_code" text,
	"staff_id" text,
	"staff_name" text,
	"key_id" text,
	"key_name" text,
	"lock_code" text,
	"task_id" text,
	"task_name" text,
	"authorization_id" text,
	"action" text NOT NULL,
	"op_method" text,
	"source" text NOT NULL,
	"result" text NOT NULL,
	"refusal" text,
	"command_id" text,
	"command_state" text,
	"covered" boolean,
	"photo_file_id" text,
	"client_record_id" text,
	"operate_time" timestamp with time zone NOT NULL,
	"upload_time" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "operation_record_time_idx" ON "operation_record" USING btree ("operate_time","id");--> statement-breakpoint
CREATE INDEX "operation_record_device_idx" ON "operation_record" USING btree ("device_id","operate_time");--> statement-breakpoint
CREATE INDEX "operation_record_task_idx" ON "operation_record" USING btree ("task_id");--> statement-breakpoint
CREATE INDEX "operation_record_command_idx" ON "operation_record" USING btree ("command_id") WHERE "operation_record"."command_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "operation_record_client_key" ON "operation_record" USING btree ("client_record_id") WHERE "operation_record"."client_record_id" is not null;