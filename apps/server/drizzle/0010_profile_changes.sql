-- A session kept in memory also keeps, once asked for, what getUserInfo shows of its user: the user's own
-- fields, the department's name, the roles' names and the station. Their changes are announced as well.
DROP TRIGGER session_change ON staff;
--> statement-breakpoint
CREATE TRIGGER session_change AFTER UPDATE ON staff FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.name IS DISTINCT FROM NEW.name
    OR OLD.must_change_password IS DISTINCT FROM NEW.must_change_password
    OR OLD.dept_id IS DISTINCT FROM NEW.dept_id OR OLD.avatar IS DISTINCT FROM NEW.avatar
    OR OLD.email IS DISTINCT FROM NEW.email OR OLD.tel_no IS DISTINCT FROM NEW.tel_no)
  EXECUTE FUNCTION session_change_of_staff();
--> statement-breakpoint
DROP TRIGGER session_change ON department;
--> statement-breakpoint
CREATE TRIGGER session_change AFTER UPDATE ON department FOR EACH ROW
  WHEN (OLD.parent_id IS DISTINCT FROM NEW.parent_id OR OLD.id IS DISTINCT FROM NEW.id
    OR OLD.name IS DISTINCT FROM NEW.name)
  EXECUTE FUNCTION session_change_of_all();
--> statement-breakpoint
CREATE TRIGGER session_change AFTER UPDATE ON role FOR EACH ROW
  WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.id IS DISTINCT FROM NEW.id)
  EXECUTE FUNCTION session_change_of_all();
--> statement-breakpoint
CREATE TRIGGER session_removed AFTER DELETE ON role FOR EACH ROW EXECUTE FUNCTION session_change_of_all();
--> statement-breakpoint
CREATE TRIGGER session_truncated AFTER TRUNCATE ON role FOR EACH STATEMENT EXECUTE FUNCTION session_change_of_all();
--> statement-breakpoint
CREATE TRIGGER session_change AFTER INSERT OR UPDATE OR DELETE ON station FOR EACH STATEMENT
  EXECUTE FUNCTION session_change_of_all();
--> statement-breakpoint
CREATE TRIGGER session_truncated AFTER TRUNCATE ON station FOR EACH STATEMENT EXECUTE FUNCTION session_change_of_all();
