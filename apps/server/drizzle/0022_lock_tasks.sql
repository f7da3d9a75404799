CREATE TABLE "lock_task" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"name" text NOT NULL,
	"start_time" timestamp with time zone NOT NULL,
	"end_time" timestamp with time zone NOT NULL,
	"state" text DEFAULT 'New' NOT NULL,
	"auth_flag" text,
	"reason" text,
	"audit_dept_id" text,
	"auditor_id" text,
	"audited_by" text,
	"audited_by_name" text,
	"audited_at" timestamp with time zone,
	"operate_dept_id" text,
	"all_device" boolean DEFAULT false NOT NULL,
	"finish_flag" text,
	"finish_time" timestamp with time zone,
	"task_source" text DEFAULT 'console' NOT NULL,
	"creator_id" text NOT NULL,
	"creator_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lock_task_time_ck" CHECK ("lock_task"."start_time" < "lock_task"."end_time")
);
--> statement-breakpoint
CREATE TABLE "lock_task_item" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"task_id" text NOT NULL,
	"device_id" text NOT NULL,
	"key_id" text,
	"sort_index" integer DEFAULT 0 NOT NULL,
	"to_key_time" timestamp with time zone,
	"upload_time" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "lock_task_operator" (
	"task_id" text NOT NULL,
	"staff_id" text NOT NULL,
	CONSTRAINT "lock_task_operator_pk" PRIMARY KEY("task_id","staff_id")
);
--> statement-breakpoint
ALTER TABLE "lock_task" ADD CONSTRAINT "lock_task_audit_dept_id_department_id_fk" FOREIGN KEY ("audit_dept_id") REFERENCES "public"."department"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lock_task" ADD CONSTRAINT "lock_task_auditor_id_staff_id_fk" FOREIGN KEY ("auditor_id") REFERENCES "public"."staff"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lock_task" ADD CONSTRAINT "lock_task_operate_dept_id_department_id_fk" FOREIGN KEY ("operate_dept_id") REFERENCES "public"."department"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lock_task_item" ADD CONSTRAINT "lock_task_item_task_id_lock_task_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."lock_task"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lock_task_item" ADD CONSTRAINT "lock_task_item_device_id_device_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."device"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lock_task_item" ADD CONSTRAINT "lock_task_item_key_id_lock_key_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."lock_key"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lock_task_operator" ADD CONSTRAINT "lock_task_operator_task_id_lock_task_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."lock_task"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lock_task_operator" ADD CONSTRAINT "lock_task_operator_staff_id_staff_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "lock_task_state_idx" ON "lock_task" USING btree ("state");--> statement-breakpoint
CREATE INDEX "lock_task_creator_idx" ON "lock_task" USING btree ("creator_id");--> statement-breakpoint
CREATE INDEX "lock_task_end_idx" ON "lock_task" USING btree ("end_time");--> statement-breakpoint
CREATE INDEX "lock_task_item_task_idx" ON "lock_task_item" USING btree ("task_id");--> statement-breakpoint
CREATE INDEX "lock_task_item_device_idx" ON "lock_task_item" USING btree ("device_id");--> statement-breakpoint
CREATE INDEX "lock_task_operator_staff_idx" ON "lock_task_operator" USING btree ("staff_id");