import QRCode from 'qrcode';
import { useMemo } from 'react';

/**
 * A QR code drawn as SVG from the code's modules: no canvas, no image fetched, nothing set as HTML
 * (the console's Content-Security-Policy allows neither inline style nor script).
 */
export function QrCode({ text, label }: { text: string; label: string }) {
  const { size, path } = useMemo(() => {
    const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
    let drawn = '';
    for (let row = 0; row < modules.size; row += 1) {
      for (let column = 0; column < modules.size; column += 1) {
        if (modules.get(row, column)) drawn += `M${column + 4} ${row + 4}h1v1h-1z`;
      }
    }
    // Four modules of quiet zone on every side, as the standard asks.
    return { size: modules.size + 8, path: drawn };
  }, [text]);
  return (
    <svg className="qr-code" role="img" aria-label={label} viewBox={`0 0 ${size} ${size}`} width={size * 5} height={size * 5} shapeRendering="crispEdges">
      <rect width={size} height={size} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
