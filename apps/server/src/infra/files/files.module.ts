import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineModule } from '../../module.ts';
import { FileService } from './file.service.ts';
import { filesRoutes } from './files.routes.ts';
import { openFileStore } from './open-file-store.ts';

/** The file store: uploads, what refers to them, the orphan sweep. */
export const filesModule = defineModule({
  name: 'files',
  build: ({ db, config, options }) => ({
    files: new FileService(
      db,
      options.fileStore ??
        openFileStore({
          dataDir: config.dataDir ?? mkdtempSync(path.join(tmpdir(), 'uiot-files-')),
          fileStore: config.fileStore,
        }),
      options.files,
    ),
  }),
  routes: (services) => filesRoutes(services),
});
