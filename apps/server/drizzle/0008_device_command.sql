CREATE TABLE "device_command" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"device_id" text NOT NULL,
	"cmd_code" text NOT NULL,
	"name" text NOT NULL,
	"params" jsonb,
	"expire_time" timestamp with time zone NOT NULL,
	"max_retransmit" integer NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"send_flag" boolean DEFAULT false NOT NULL,
	"send_time" timestamp with time zone,
	"last_sent_at" timestamp with time zone,
	"transport" text,
	"receive_id" text,
	"platform_device_id" text,
	"state" text DEFAULT 'Waitting' NOT NULL,
	"detail" text,
	"failure_code" integer,
	"failure_params" jsonb,
	"staff_id" text,
	"staff_name" text,
	"next_check_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "device_command" ADD CONSTRAINT "device_command_device_id_device_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."device"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "device_command_due_idx" ON "device_command" USING btree ("next_check_at") WHERE "device_command"."next_check_at" is not null;--> statement-breakpoint
CREATE INDEX "device_command_device_idx" ON "device_command" USING btree ("device_id","created_at");--> statement-breakpoint
CREATE INDEX "device_command_receive_idx" ON "device_command" USING btree ("device_id","receive_id");--> statement-breakpoint
CREATE INDEX "device_command_created_idx" ON "device_command" USING btree ("created_at");