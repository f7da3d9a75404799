import { useEffect, useState } from 'react';

/**
 * An object URL for a blob (an image downloaded through the request layer, or a file the user chose),
 * revoked when the blob changes or the component goes: files are shown from the browser's memory, never
 * from an address the page would fetch itself.
 */
export function useObjectUrl(blob: Blob | null | undefined): string | undefined {
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    if (!blob) {
      setUrl(undefined);
      return;
    }
    const created = URL.createObjectURL(blob);
    setUrl(created);
    return () => URL.revokeObjectURL(created);
  }, [blob]);
  return url;
}
