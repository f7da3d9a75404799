-- Ended device commands keep no secret among their parameters (modules/commands/command-secrets.ts):
-- every parameter of setPassword and setPin, and any parameter whose name has a secret word among its
-- words (camelCase or separated by space, underscore, dot or dash), is replaced by '******'.
UPDATE "device_command" AS c
SET "params" = (
  SELECT jsonb_object_agg(
    p.key,
    CASE
      WHEN c."cmd_code" IN ('setPassword', 'setPin')
        OR regexp_split_to_array(lower(regexp_replace(p.key, '([a-z0-9])([A-Z])', '\1 \2', 'g')), '[[:space:]_.-]+')
           && ARRAY['password', 'passcode', 'pwd', 'pin', 'secret', 'token']
      THEN '"******"'::jsonb
      ELSE p.value
    END
  )
  FROM jsonb_each(c."params") AS p
)
WHERE c."finished_at" IS NOT NULL
  AND c."params" IS NOT NULL
  AND jsonb_typeof(c."params") = 'object'
  AND c."params" <> '{}'::jsonb
  AND EXISTS (
    SELECT 1 FROM jsonb_each(c."params") AS p
    WHERE (c."cmd_code" IN ('setPassword', 'setPin')
           OR regexp_split_to_array(lower(regexp_replace(p.key, '([a-z0-9])([A-Z])', '\1 \2', 'g')), '[[:space:]_.-]+')
              && ARRAY['password', 'passcode', 'pwd', 'pin', 'secret', 'token'])
      AND p.value <> '"******"'::jsonb
  );
