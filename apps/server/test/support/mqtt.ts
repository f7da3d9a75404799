import type { MqttClient } from 'mqtt';

/** The CONNACK return code of a refused connection (4 bad credentials, 5 not authorised), or 'accepted'. */
export async function refusal(attempt: Promise<MqttClient>): Promise<number | string> {
  try {
    const client = await attempt;
    await client.endAsync(true);
    return 'accepted';
  } catch (error) {
    return (error as { code?: number }).code ?? String(error);
  }
}
