import { Box } from '@mantine/core';

const TILE = 256;

/** The tile (x, y, and where in it) of a position at a zoom level (Web Mercator, as map tile servers cut them). */
function tileOf(latitude: number, longitude: number, zoom: number) {
  const n = 2 ** zoom;
  const x = ((longitude + 180) / 360) * n;
  const lat = (latitude * Math.PI) / 180;
  const y = ((1 - Math.log(Math.tan(lat) + 1 / Math.cos(lat)) / Math.PI) / 2) * n;
  return { x, y };
}

/**
 * A small map around a position, drawn from the configured tile server (3 × 3 tiles, the point in
 * the middle with a marker). Nothing is shown without a tile server (public config: map_tile_url).
 */
export function MapPreview({ latitude, longitude, tiles, zoom = 15, width = 320, height = 180, label }: { latitude: number; longitude: number; tiles: string | null; zoom?: number; width?: number; height?: number; label: string }) {
  if (!tiles) return null;
  const { x, y } = tileOf(latitude, longitude, zoom);
  const [tx, ty] = [Math.floor(x), Math.floor(y)];
  // Where the point is inside the 3 × 3 block, in pixels; the block is moved so it sits in the middle.
  const px = (x - tx + 1) * TILE;
  const py = (y - ty + 1) * TILE;
  const left = width / 2 - px;
  const top = height / 2 - py;
  const url = (dx: number, dy: number) => tiles.replace('{z}', String(zoom)).replace('{x}', String(tx + dx)).replace('{y}', String(ty + dy));
  return (
    <Box role="img" aria-label={label} pos="relative" w={width} h={height} style={{ overflow: 'hidden', borderRadius: 8 }} bd="1px solid var(--mantine-color-default-border)" data-testid="map-preview">
      {[-1, 0, 1].flatMap((dy) =>
        [-1, 0, 1].map((dx) => (
          <img key={`${dx},${dy}`} src={url(dx, dy)} alt="" width={TILE} height={TILE} style={{ position: 'absolute', left: left + (dx + 1) * TILE, top: top + (dy + 1) * TILE }} />
        )),
      )}
      <Box pos="absolute" left={width / 2 - 7} top={height / 2 - 7} w={14} h={14} bg="red.7" style={{ borderRadius: '50%', border: '2px solid white', boxShadow: '0 0 3px rgba(0,0,0,.6)' }} />
    </Box>
  );
}
