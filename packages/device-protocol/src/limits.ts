/**
 * Size and count limits of the wire formats. Every decoder checks the byte size before parsing, so an
 * oversized message costs a length comparison, never a parse.
 */

/** A native MQTT `up` / `ack` / `down` payload (UTF-8 JSON). */
export const MAX_NATIVE_PAYLOAD_BYTES = 8192;
/** The JSON body of one TcpDirect frame (the 4-byte length prefix not included). */
export const MAX_TCP_FRAME_BYTES = 8192;
/** The lock's binary payload: the largest LoRaWAN application payload (DR4+, 242 bytes) is the tightest bearer. */
export const MAX_LOCK_PAYLOAD_BYTES = 242;
/** An NB-IoT platform callback body. */
export const MAX_CALLBACK_BODY_BYTES = 65536;
/** A ChirpStack integration event (several gateways' rxInfo make it larger than a native payload). */
export const MAX_CHIRPSTACK_EVENT_BYTES = 65536;
export const MAX_MESSAGE_ID_LENGTH = 64;
/** Extension properties of one report, and parameters of one command. */
export const MAX_PROPS = 32;
export const MAX_PROP_KEY_LENGTH = 64;
export const MAX_PROP_STRING_LENGTH = 256;
/** Device or platform text of a command result. */
export const MAX_DETAIL_LENGTH = 200;
/** TcpDirect / topic identifiers: station id and device code. */
export const MAX_SEGMENT_LENGTH = 64;
/** A TcpDirect device secret. */
export const MAX_SECRET_LENGTH = 256;
