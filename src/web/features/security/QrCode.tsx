import { encode } from 'uqr';

/** A QR code drawn here, in the browser (the secret it holds never leaves for an image service). */
export function QrCode(props: { value: string; label: string; size?: number }) {
  const { data, size } = encode(props.value, { ecc: 'M', border: 2 });
  const cells: string[] = [];
  data.forEach((row, y) => row.forEach((dark, x) => dark && cells.push(`M${x} ${y}h1v1h-1z`)));
  const pixels = props.size ?? 192;
  return (
    <svg role="img" aria-label={props.label} viewBox={`0 0 ${size} ${size}`} width={pixels} height={pixels} shapeRendering="crispEdges" className="rounded-lg bg-white">
      <rect width={size} height={size} fill="#fff" />
      <path d={cells.join('')} fill="#1c1917" />
    </svg>
  );
}
