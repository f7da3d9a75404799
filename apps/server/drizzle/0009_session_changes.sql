-- Every server instance keeps what a session resolves to (the session, its user, the user's permission keys
-- and the forced password change) in memory. These triggers tell every instance, when the writing
-- transaction commits, what changed on channel uiot_session_change: 'session:<token hash>' for one session,
-- 'staff:<staff id>' for everything of one user, 'all' for what may touch any user.
CREATE FUNCTION session_change_of_session() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('uiot_session_change', 'session:' || OLD.token_hash);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER session_change AFTER UPDATE ON session FOR EACH ROW
  WHEN (OLD.revoked_at IS DISTINCT FROM NEW.revoked_at OR OLD.expires_at IS DISTINCT FROM NEW.expires_at
    OR NEW.idle_expires_at < OLD.idle_expires_at OR OLD.staff_id IS DISTINCT FROM NEW.staff_id)
  EXECUTE FUNCTION session_change_of_session();
--> statement-breakpoint
CREATE TRIGGER session_removed AFTER DELETE ON session FOR EACH ROW EXECUTE FUNCTION session_change_of_session();
--> statement-breakpoint
CREATE FUNCTION session_change_of_staff() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('uiot_session_change', 'staff:' || OLD.id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER session_change AFTER UPDATE ON staff FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.name IS DISTINCT FROM NEW.name
    OR OLD.must_change_password IS DISTINCT FROM NEW.must_change_password
    OR OLD.dept_id IS DISTINCT FROM NEW.dept_id)
  EXECUTE FUNCTION session_change_of_staff();
--> statement-breakpoint
CREATE TRIGGER session_removed AFTER DELETE ON staff FOR EACH ROW EXECUTE FUNCTION session_change_of_staff();
--> statement-breakpoint
CREATE FUNCTION session_change_of_staff_role() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN PERFORM pg_notify('uiot_session_change', 'staff:' || OLD.staff_id); END IF;
  IF TG_OP <> 'DELETE' THEN PERFORM pg_notify('uiot_session_change', 'staff:' || NEW.staff_id); END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER session_change AFTER INSERT OR UPDATE OR DELETE ON staff_role FOR EACH ROW
  EXECUTE FUNCTION session_change_of_staff_role();
--> statement-breakpoint
-- A staff member's own keys touch that user; a role's or a department's may touch anyone.
CREATE FUNCTION session_change_of_grant() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM pg_notify('uiot_session_change',
      CASE WHEN OLD.subject_type = 'Staff' THEN 'staff:' || OLD.subject_id ELSE 'all' END);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM pg_notify('uiot_session_change',
      CASE WHEN NEW.subject_type = 'Staff' THEN 'staff:' || NEW.subject_id ELSE 'all' END);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER session_change AFTER INSERT OR UPDATE OR DELETE ON permission_grant FOR EACH ROW
  EXECUTE FUNCTION session_change_of_grant();
--> statement-breakpoint
CREATE FUNCTION session_change_of_all() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('uiot_session_change', 'all');
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Department grants reach the departments below: moving or removing a department changes their keys.
CREATE TRIGGER session_change AFTER UPDATE ON department FOR EACH ROW
  WHEN (OLD.parent_id IS DISTINCT FROM NEW.parent_id OR OLD.id IS DISTINCT FROM NEW.id)
  EXECUTE FUNCTION session_change_of_all();
--> statement-breakpoint
CREATE TRIGGER session_removed AFTER DELETE ON department FOR EACH ROW EXECUTE FUNCTION session_change_of_all();
--> statement-breakpoint
-- The parameter ChangePwdByFirstLogin holds users at the forced password change.
CREATE FUNCTION session_change_of_param() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (TG_OP <> 'INSERT' AND OLD.name = 'ChangePwdByFirstLogin')
    OR (TG_OP <> 'DELETE' AND NEW.name = 'ChangePwdByFirstLogin') THEN
    PERFORM pg_notify('uiot_session_change', 'all');
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER session_change AFTER INSERT OR UPDATE OR DELETE ON param FOR EACH ROW
  EXECUTE FUNCTION session_change_of_param();
--> statement-breakpoint
CREATE TRIGGER session_truncated AFTER TRUNCATE ON session FOR EACH STATEMENT EXECUTE FUNCTION session_change_of_all();
--> statement-breakpoint
CREATE TRIGGER session_truncated AFTER TRUNCATE ON staff FOR EACH STATEMENT EXECUTE FUNCTION session_change_of_all();
--> statement-breakpoint
CREATE TRIGGER session_truncated AFTER TRUNCATE ON staff_role FOR EACH STATEMENT EXECUTE FUNCTION session_change_of_all();
--> statement-breakpoint
CREATE TRIGGER session_truncated AFTER TRUNCATE ON permission_grant FOR EACH STATEMENT EXECUTE FUNCTION session_change_of_all();
--> statement-breakpoint
CREATE TRIGGER session_truncated AFTER TRUNCATE ON department FOR EACH STATEMENT EXECUTE FUNCTION session_change_of_all();
--> statement-breakpoint
CREATE TRIGGER session_truncated AFTER TRUNCATE ON param FOR EACH STATEMENT EXECUTE FUNCTION session_change_of_all();
