/** The pinned home page: `/` leads here, and so does closing the last tab (spec §2). */
export const HOME_PATH = '/home';
