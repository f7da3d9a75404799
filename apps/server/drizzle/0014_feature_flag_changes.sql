-- The feature flags (parameters of group `feature`) decide the menus of every session and which endpoints
-- answer; servers keep them in memory, so every change of one is announced like a change of every session.
CREATE OR REPLACE FUNCTION session_change_of_param() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (TG_OP <> 'INSERT' AND (OLD.name = 'ChangePwdByFirstLogin' OR OLD.param_group = 'feature'))
    OR (TG_OP <> 'DELETE' AND (NEW.name = 'ChangePwdByFirstLogin' OR NEW.param_group = 'feature')) THEN
    PERFORM pg_notify('uiot_session_change', 'all');
  END IF;
  RETURN NULL;
END $$;
