CREATE TABLE "alarm_timer" (
	"rule_id" text NOT NULL,
	"device_id" text NOT NULL,
	"kind" text NOT NULL,
	"since" timestamp with time zone,
	"due_at" timestamp with time zone NOT NULL,
	"alarm_id" text,
	CONSTRAINT "alarm_timer_pkey" PRIMARY KEY("rule_id","device_id","kind")
);
--> statement-breakpoint
CREATE TABLE "device_alarm" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"station_id" text NOT NULL,
	"rule_id" text,
	"rule_name" text NOT NULL,
	"device_id" text NOT NULL,
	"content" text NOT NULL,
	"severity" text NOT NULL,
	"prop_origin" text,
	"prop_name" text,
	"state" text DEFAULT 'Warn' NOT NULL,
	"can_reset" boolean DEFAULT true NOT NULL,
	"warn_time" timestamp with time zone NOT NULL,
	"reset_time" timestamp with time zone,
	"reset_staff_id" text,
	"reset_staff_name" text,
	"ack_time" timestamp with time zone,
	"ack_staff_id" text,
	"ack_staff_name" text,
	"last_sent_at" timestamp with time zone,
	"send_count" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "device_property" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"device_type_id" text NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"origin" text NOT NULL,
	"value_type" text NOT NULL,
	"unit" text,
	"built_in" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "warn_rule" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"device_type_id" text NOT NULL,
	"name" text NOT NULL,
	"format_msg" text NOT NULL,
	"rule_type" text NOT NULL,
	"logic_type" text NOT NULL,
	"delay_interval" integer,
	"resend" boolean DEFAULT false NOT NULL,
	"resend_interval" integer,
	"sms_notice" boolean DEFAULT false NOT NULL,
	"msg_notice" boolean DEFAULT false NOT NULL,
	"email_notice" boolean DEFAULT false NOT NULL,
	"severity" text DEFAULT 'major' NOT NULL,
	"clear_mode" text DEFAULT 'inverse' NOT NULL,
	"clear_logic_type" text DEFAULT 'AND' NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"description" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "warn_rule_item" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"rule_id" text NOT NULL,
	"role" text DEFAULT 'raise' NOT NULL,
	"sort_index" integer DEFAULT 0 NOT NULL,
	"prop_code" text NOT NULL,
	"prop_name" text NOT NULL,
	"prop_origin" text NOT NULL,
	"prop_val" text NOT NULL,
	"val_type" text NOT NULL,
	"condition_type" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "warn_rule_recipient" (
	"rule_id" text NOT NULL,
	"kind" text NOT NULL,
	"target_id" text NOT NULL,
	CONSTRAINT "warn_rule_recipient_pkey" PRIMARY KEY("rule_id","kind","target_id")
);
--> statement-breakpoint
ALTER TABLE "alarm_timer" ADD CONSTRAINT "alarm_timer_rule_id_warn_rule_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."warn_rule"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarm_timer" ADD CONSTRAINT "alarm_timer_device_id_device_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."device"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarm_timer" ADD CONSTRAINT "alarm_timer_alarm_id_device_alarm_id_fk" FOREIGN KEY ("alarm_id") REFERENCES "public"."device_alarm"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_alarm" ADD CONSTRAINT "device_alarm_rule_id_warn_rule_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."warn_rule"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_alarm" ADD CONSTRAINT "device_alarm_device_id_device_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."device"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_property" ADD CONSTRAINT "device_property_device_type_id_device_type_id_fk" FOREIGN KEY ("device_type_id") REFERENCES "public"."device_type"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "warn_rule" ADD CONSTRAINT "warn_rule_device_type_id_device_type_id_fk" FOREIGN KEY ("device_type_id") REFERENCES "public"."device_type"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "warn_rule_item" ADD CONSTRAINT "warn_rule_item_rule_id_warn_rule_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."warn_rule"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "warn_rule_recipient" ADD CONSTRAINT "warn_rule_recipient_rule_id_warn_rule_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."warn_rule"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alarm_timer_due_idx" ON "alarm_timer" USING btree ("due_at");--> statement-breakpoint
CREATE UNIQUE INDEX "device_alarm_open_key" ON "device_alarm" USING btree ("rule_id","device_id") WHERE "device_alarm"."state" = 'Warn';--> statement-breakpoint
CREATE INDEX "device_alarm_warn_time_idx" ON "device_alarm" USING btree ("warn_time","id");--> statement-breakpoint
CREATE INDEX "device_alarm_device_time_idx" ON "device_alarm" USING btree ("device_id","warn_time");--> statement-breakpoint
CREATE UNIQUE INDEX "device_property_code_key" ON "device_property" USING btree ("device_type_id","origin",lower("code"));--> statement-breakpoint
CREATE INDEX "warn_rule_device_type_idx" ON "warn_rule" USING btree ("device_type_id");--> statement-breakpoint
CREATE UNIQUE INDEX "warn_rule_name_key" ON "warn_rule" USING btree ("device_type_id",lower("name"));--> statement-breakpoint
CREATE INDEX "warn_rule_item_rule_idx" ON "warn_rule_item" USING btree ("rule_id","role","sort_index");