/**
 * The model every demo file holds: a closed, egg-shaped mesh of 512 triangles, 60 × 40 × 25 mm (a
 * dental arch's size, so the scan checks find nothing to warn about). 25.7 KB, so hundreds of demo
 * files cost a few megabytes and the previews, downloads and file-server queue of the demo all work.
 */
export const DEMO_MODEL = demoModelStl(3);
export const DEMO_MODEL_TRIANGLES = (DEMO_MODEL.length - 84) / 50;

function demoModelStl(subdivisions: number): Uint8Array {
  const vertices: Array<[number, number, number]> = [[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]];
  let faces: Array<[number, number, number]> = [[0, 2, 4], [2, 1, 4], [1, 3, 4], [3, 0, 4], [2, 0, 5], [1, 2, 5], [3, 1, 5], [0, 3, 5]];
  for (let round = 0; round < subdivisions; round++) {
    // A shared edge gets one midpoint, so neighbouring triangles keep identical corners (closed mesh).
    const midpoints = new Map<string, number>();
    const midpoint = (a: number, b: number) => {
      const key = a < b ? `${a}-${b}` : `${b}-${a}`;
      let index = midpoints.get(key);
      if (index === undefined) {
        const [u, v] = [vertices[a]!, vertices[b]!];
        const m: [number, number, number] = [(u[0] + v[0]) / 2, (u[1] + v[1]) / 2, (u[2] + v[2]) / 2];
        const length = Math.hypot(...m);
        index = vertices.push([m[0] / length, m[1] / length, m[2] / length]) - 1;
        midpoints.set(key, index);
      }
      return index;
    };
    faces = faces.flatMap(([a, b, c]) => {
      const [ab, bc, ca] = [midpoint(a, b), midpoint(b, c), midpoint(c, a)];
      return [[a, ab, ca], [ab, b, bc], [ca, bc, c], [ab, bc, ca]] as Array<[number, number, number]>;
    });
  }
  const bytes = new Uint8Array(84 + 50 * faces.length);
  const view = new DataView(bytes.buffer);
  bytes.set(new TextEncoder().encode("Aligner Lab demo model"));
  view.setUint32(80, faces.length, true);
  const scale = [30, 20, 12.5];
  faces.forEach((face, index) => {
    const at = 84 + 50 * index;
    face.forEach((vertex, corner) => {
      for (let axis = 0; axis < 3; axis++) view.setFloat32(at + 12 + corner * 12 + axis * 4, vertices[vertex]![axis]! * scale[axis]!, true);
    });
  });
  return bytes;
}
