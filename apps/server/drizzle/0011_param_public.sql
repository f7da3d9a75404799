-- Parameters marked public are readable by every signed-in user without param.read; the built-in ones get
-- their fixed flag at every start (ParamService.seedDefaults).
ALTER TABLE "param" ADD COLUMN "is_public" boolean DEFAULT false NOT NULL;
