import { z } from 'zod';

/**
 * `/config.json`: the console's runtime configuration (spec §3 Settings), written by the server from its
 * own configuration so the console needs no rebuild when ports or switches change.
 */
export const runtimeConfig = z.object({
  system: z.object({
    title: z.object({ 'zh-CN': z.string(), en: z.string(), 'zh-TW': z.string() }),
    errorLog: z.boolean(),
    debug: z.boolean(),
  }),
  service: z.object({ url: z.string(), timeout: z.number().int().positive() }),
  websocket: z.object({ path: z.string() }),
  /**
   * The broker of the live channel. Without it the console still runs, without live data, and says
   * 'mqtt init failed, please check the config file' (spec §8).
   */
  mqttOptions: z
    .object({
      /** Port of the broker's WebSocket listener; the host is the console's own host. */
      port: z.number().int(),
      path: z.string(),
      keepalive: z.number().int(),
      reconnectPeriod: z.number().int(),
      connectTimeout: z.number().int(),
      clean: z.boolean(),
      ssl: z.boolean(),
    })
    .optional(),
  views: z.object({
    sidebar: z.boolean(),
    sidebarLogo: z.boolean(),
    navbar: z.boolean(),
    fixedHeader: z.boolean(),
    tagsView: z.boolean(),
  }),
});
export type RuntimeConfig = z.infer<typeof runtimeConfig>;
