/**
 * Where the live channel stands: `off` (signed out, or it could not start), `connecting` (started, not yet
 * subscribed), `live` (subscribed to the station's console topics), `reconnecting` (the connection was lost).
 */
export type RealtimeStatus = 'off' | 'connecting' | 'live' | 'reconnecting';
