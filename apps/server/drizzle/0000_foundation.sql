CREATE TABLE "login_log" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "login_log_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" text NOT NULL,
	"user_name" text NOT NULL,
	"login_time" timestamp with time zone DEFAULT now() NOT NULL,
	"logout_time" timestamp with time zone,
	"ip_addr" text,
	"session_hash" text
);
--> statement-breakpoint
CREATE TABLE "op_log" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "op_log_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"ip_addr" text,
	"method_args" text,
	"method_desc" text NOT NULL,
	"method_name" text NOT NULL,
	"method_type" text NOT NULL,
	"operate_time" timestamp with time zone DEFAULT now() NOT NULL,
	"url" text NOT NULL,
	"user_id" text,
	"user_name" text,
	"result_code" integer
);
--> statement-breakpoint
CREATE TABLE "login_throttle" (
	"key" text PRIMARY KEY NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"last_failure_at" timestamp with time zone,
	"locked_until" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "session" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"staff_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	"idle_expires_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"ip_addr" text
);
--> statement-breakpoint
CREATE TABLE "department" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"name" text NOT NULL,
	"code" text,
	"dept_type" text DEFAULT 'Electric' NOT NULL,
	"description" text,
	"idx_no" integer DEFAULT 0 NOT NULL,
	"parent_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "role" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"name" text NOT NULL,
	"role_type" text,
	"description" text,
	"dept_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "role_permission" (
	"role_id" text NOT NULL,
	"permission" text NOT NULL,
	CONSTRAINT "role_permission_pk" PRIMARY KEY("role_id","permission")
);
--> statement-breakpoint
CREATE TABLE "staff" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"name" text NOT NULL,
	"dept_id" text,
	"age" integer,
	"sex" integer,
	"password_hash" text NOT NULL,
	"email" text,
	"tel_no" text,
	"address" text,
	"notes" text,
	"fax_no" text,
	"rfid_code" text,
	"staff_type" integer DEFAULT 1 NOT NULL,
	"status" text DEFAULT 'activated' NOT NULL,
	"signature" text,
	"avatar" text,
	"must_change_password" boolean DEFAULT true NOT NULL,
	"password_changed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "staff_role" (
	"staff_id" text NOT NULL,
	"role_id" text NOT NULL,
	CONSTRAINT "staff_role_pk" PRIMARY KEY("staff_id","role_id")
);
--> statement-breakpoint
CREATE TABLE "station" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "param" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"name" text NOT NULL,
	"val_type" text DEFAULT 'string' NOT NULL,
	"val" text,
	"cls" text,
	"def_val" text,
	"description" text,
	"editable" boolean DEFAULT true NOT NULL,
	"param_group" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "session" ADD CONSTRAINT "session_staff_id_staff_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "role_permission" ADD CONSTRAINT "role_permission_role_id_role_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."role"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff" ADD CONSTRAINT "staff_dept_id_department_id_fk" FOREIGN KEY ("dept_id") REFERENCES "public"."department"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_role" ADD CONSTRAINT "staff_role_staff_id_staff_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_role" ADD CONSTRAINT "staff_role_role_id_role_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."role"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "login_log_login_time_idx" ON "login_log" USING btree ("login_time");--> statement-breakpoint
CREATE INDEX "login_log_user_time_idx" ON "login_log" USING btree ("user_id","login_time");--> statement-breakpoint
CREATE INDEX "login_log_session_idx" ON "login_log" USING btree ("session_hash");--> statement-breakpoint
CREATE INDEX "op_log_operate_time_idx" ON "op_log" USING btree ("operate_time");--> statement-breakpoint
CREATE INDEX "op_log_user_time_idx" ON "op_log" USING btree ("user_id","operate_time");--> statement-breakpoint
CREATE INDEX "session_staff_idx" ON "session" USING btree ("staff_id");--> statement-breakpoint
CREATE INDEX "department_parent_idx" ON "department" USING btree ("parent_id");--> statement-breakpoint
CREATE UNIQUE INDEX "staff_name_lower_uq" ON "staff" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "staff_dept_idx" ON "staff" USING btree ("dept_id");--> statement-breakpoint
CREATE INDEX "staff_role_role_idx" ON "staff_role" USING btree ("role_id");--> statement-breakpoint
CREATE UNIQUE INDEX "param_name_uq" ON "param" USING btree ("name");