ALTER TABLE "device_alarm" DROP CONSTRAINT "device_alarm_device_id_device_id_fk";
--> statement-breakpoint
ALTER TABLE "device_command" DROP CONSTRAINT "device_command_device_id_device_id_fk";
--> statement-breakpoint
ALTER TABLE "lock_replacement" DROP CONSTRAINT "lock_replacement_device_id_device_id_fk";
--> statement-breakpoint
ALTER TABLE "lock_replacement" DROP CONSTRAINT "lock_replacement_replacement_id_device_id_fk";
--> statement-breakpoint
ALTER TABLE "lock_task_item" DROP CONSTRAINT "lock_task_item_device_id_device_id_fk";
--> statement-breakpoint
ALTER TABLE "device_alarm" ADD CONSTRAINT "device_alarm_device_id_device_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."device"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_command" ADD CONSTRAINT "device_command_device_id_device_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."device"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lock_replacement" ADD CONSTRAINT "lock_replacement_device_id_device_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."device"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lock_replacement" ADD CONSTRAINT "lock_replacement_replacement_id_device_id_fk" FOREIGN KEY ("replacement_id") REFERENCES "public"."device"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lock_task_item" ADD CONSTRAINT "lock_task_item_device_id_device_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."device"("id") ON DELETE restrict ON UPDATE no action;