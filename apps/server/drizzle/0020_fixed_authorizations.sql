CREATE TABLE "fixed_authorization" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"staff_id" text,
	"dept_id" text,
	"forever" boolean DEFAULT false NOT NULL,
	"start_time" timestamp with time zone,
	"end_time" timestamp with time zone,
	"all_device" boolean DEFAULT false NOT NULL,
	"created_by" text,
	"created_by_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fixed_authorization_object_ck" CHECK (("fixed_authorization"."staff_id" is null) <> ("fixed_authorization"."dept_id" is null)),
	CONSTRAINT "fixed_authorization_time_ck" CHECK ("fixed_authorization"."forever" or ("fixed_authorization"."start_time" is not null and "fixed_authorization"."end_time" is not null and "fixed_authorization"."start_time" < "fixed_authorization"."end_time"))
);
--> statement-breakpoint
CREATE TABLE "fixed_authorization_device" (
	"authorization_id" text NOT NULL,
	"device_id" text NOT NULL,
	CONSTRAINT "fixed_authorization_device_pk" PRIMARY KEY("authorization_id","device_id")
);
--> statement-breakpoint
ALTER TABLE "fixed_authorization" ADD CONSTRAINT "fixed_authorization_staff_id_staff_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fixed_authorization" ADD CONSTRAINT "fixed_authorization_dept_id_department_id_fk" FOREIGN KEY ("dept_id") REFERENCES "public"."department"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fixed_authorization_device" ADD CONSTRAINT "fixed_authorization_device_authorization_id_fixed_authorization_id_fk" FOREIGN KEY ("authorization_id") REFERENCES "public"."fixed_authorization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fixed_authorization_device" ADD CONSTRAINT "fixed_authorization_device_device_id_device_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."device"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "fixed_authorization_staff_idx" ON "fixed_authorization" USING btree ("staff_id");--> statement-breakpoint
CREATE INDEX "fixed_authorization_dept_idx" ON "fixed_authorization" USING btree ("dept_id");--> statement-breakpoint
CREATE INDEX "fixed_authorization_device_device_idx" ON "fixed_authorization_device" USING btree ("device_id");