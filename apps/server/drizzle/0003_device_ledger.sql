CREATE TABLE "adjust_value" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"device_id" text NOT NULL,
	"name" text NOT NULL,
	"value" double precision NOT NULL,
	"type" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "device" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"name" text NOT NULL,
	"code" text,
	"sbbh" text,
	"ad_code" text,
	"bay_id" text,
	"lng" numeric(10, 7),
	"lat" numeric(9, 7),
	"is_draw_tool" boolean DEFAULT false NOT NULL,
	"station_id" text NOT NULL,
	"status" text DEFAULT 'normal' NOT NULL,
	"unit_id" text NOT NULL,
	"type_id" text NOT NULL,
	"category" text NOT NULL,
	"voltage" text,
	"dept_id" text,
	"staff_id" text,
	"description" text,
	"extra1" text,
	"extra2" text,
	"graph_id" text,
	"idx_no" integer,
	"imei" text,
	"imsi" text,
	"app_key" text,
	"iot_type" text,
	"lock_status" text DEFAULT 'unknown' NOT NULL,
	"main_device_id" text,
	"net_type" text,
	"no_state" boolean DEFAULT false NOT NULL,
	"no_working" boolean DEFAULT false NOT NULL,
	"addr" text,
	"second_id" text,
	"km_info" text,
	"line" text,
	"track" text,
	"door" text,
	"regist" boolean DEFAULT false NOT NULL,
	"regist_time" timestamp with time zone,
	"app_eui" text,
	"dev_eui" text,
	"product_id" text,
	"plat_name" text,
	"camera" text,
	"pre_set" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "device_password" (
	"device_id" text PRIMARY KEY NOT NULL,
	"password" text NOT NULL,
	"updated_by" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "device_type" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"name" text NOT NULL,
	"code" text NOT NULL,
	"parent_id" text,
	"category" text NOT NULL,
	"report_interval" integer NOT NULL,
	"heartbeat_interval" integer NOT NULL,
	"sort_index" integer DEFAULT 0 NOT NULL,
	"description" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lock_code" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"device_id" text NOT NULL,
	"dnbs" text,
	"rfid_code" text NOT NULL,
	"rfid_type" text,
	"blue_addr" text,
	"effect" boolean DEFAULT true NOT NULL,
	"effective_time" timestamp with time zone,
	"expiration_time" timestamp with time zone,
	"remark" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lock_key" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"name" text NOT NULL,
	"code" text NOT NULL,
	"staff_id" text,
	"dept_id" text,
	"description" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lock_replacement" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"device_id" text NOT NULL,
	"replacement_id" text NOT NULL,
	"status" text NOT NULL,
	"steps" jsonb NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "adjust_value" ADD CONSTRAINT "adjust_value_device_id_device_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."device"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device" ADD CONSTRAINT "device_unit_id_operation_unit_id_fk" FOREIGN KEY ("unit_id") REFERENCES "public"."operation_unit"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device" ADD CONSTRAINT "device_type_id_device_type_id_fk" FOREIGN KEY ("type_id") REFERENCES "public"."device_type"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_password" ADD CONSTRAINT "device_password_device_id_device_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."device"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lock_code" ADD CONSTRAINT "lock_code_device_id_device_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."device"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lock_replacement" ADD CONSTRAINT "lock_replacement_device_id_device_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."device"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lock_replacement" ADD CONSTRAINT "lock_replacement_replacement_id_device_id_fk" FOREIGN KEY ("replacement_id") REFERENCES "public"."device"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "adjust_value_device_idx" ON "adjust_value" USING btree ("device_id");--> statement-breakpoint
CREATE UNIQUE INDEX "device_code_key" ON "device" USING btree ("code");--> statement-breakpoint
CREATE UNIQUE INDEX "device_imei_key" ON "device" USING btree ("imei");--> statement-breakpoint
CREATE UNIQUE INDEX "device_dev_eui_key" ON "device" USING btree ("dev_eui");--> statement-breakpoint
CREATE INDEX "device_unit_idx" ON "device" USING btree ("unit_id");--> statement-breakpoint
CREATE INDEX "device_type_idx" ON "device" USING btree ("type_id");--> statement-breakpoint
CREATE INDEX "device_main_idx" ON "device" USING btree ("main_device_id");--> statement-breakpoint
CREATE INDEX "device_name_idx" ON "device" USING btree ("name","id");--> statement-breakpoint
CREATE INDEX "device_created_idx" ON "device" USING btree ("created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "device_type_code_key" ON "device_type" USING btree (lower("code"));--> statement-breakpoint
CREATE INDEX "device_type_parent_idx" ON "device_type" USING btree ("parent_id");--> statement-breakpoint
CREATE UNIQUE INDEX "lock_code_rfid_key" ON "lock_code" USING btree ("rfid_code");--> statement-breakpoint
CREATE INDEX "lock_code_device_idx" ON "lock_code" USING btree ("device_id");--> statement-breakpoint
CREATE UNIQUE INDEX "lock_key_code_key" ON "lock_key" USING btree (lower("code"));--> statement-breakpoint
CREATE INDEX "lock_key_staff_idx" ON "lock_key" USING btree ("staff_id");--> statement-breakpoint
CREATE INDEX "lock_replacement_device_idx" ON "lock_replacement" USING btree ("device_id");--> statement-breakpoint
CREATE INDEX "lock_replacement_replacement_idx" ON "lock_replacement" USING btree ("replacement_id");