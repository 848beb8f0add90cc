import { AmbientLight, Box3, Color, DirectionalLight, Mesh, MeshStandardMaterial, PerspectiveCamera, Scene, Vector3, WebGLRenderer } from "three";
import { OrbitControls } from "three/examples/jsm/controls/OrbitControls.js";
import { previewGeometry } from "./stl-geometry";

/**
 * The 3D preview (issue 4): three.js with its STL loader, loaded only when "Просмотр" is pressed.
 * Draws the model on `canvas`, turnable with mouse or finger; returns a function that frees the
 * GPU memory. Throws when the file cannot be fetched or WebGL is not available.
 */
export async function showModel(canvas: HTMLCanvasElement, url: string): Promise<() => void> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`model: ${response.status}`);
  const geometry = previewGeometry(await response.arrayBuffer());
  // What was read, on the canvas itself: checked by the browser tests even where WebGL is missing.
  geometry.computeBoundingBox();
  const read = geometry.boundingBox ?? new Box3();
  canvas.dataset.triangles = String(geometry.getAttribute("position").count / 3);
  canvas.dataset.box = [...read.min.toArray(), ...read.max.toArray()].join(" ");
  geometry.computeVertexNormals();
  geometry.center();

  const renderer = new WebGLRenderer({ canvas, antialias: true });
  const width = canvas.clientWidth || 640;
  const height = canvas.clientHeight || 420;
  renderer.setPixelRatio(Math.min(window.devicePixelRatio, 2));
  renderer.setSize(width, height, false);

  const scene = new Scene();
  scene.background = new Color(0xf4f7f8);
  const material = new MeshStandardMaterial({ color: 0xe8dccb, roughness: 0.55, metalness: 0.05 });
  scene.add(new Mesh(geometry, material));
  scene.add(new AmbientLight(0xffffff, 0.6));
  const light = new DirectionalLight(0xffffff, 1.6);
  scene.add(light);

  geometry.computeBoundingBox();
  const size = (geometry.boundingBox ?? new Box3()).getSize(new Vector3()).length() || 1;
  const camera = new PerspectiveCamera(40, width / height, size / 100, size * 20);
  camera.position.set(0, -size * 0.9, size * 0.7);
  const controls = new OrbitControls(camera, canvas);
  // Drawn only when the view changes: no busy loop on a clinic's slow computer.
  const draw = () => {
    light.position.copy(camera.position);
    renderer.render(scene, camera);
  };
  controls.addEventListener("change", draw);
  draw();

  return () => {
    controls.removeEventListener("change", draw);
    controls.dispose();
    geometry.dispose();
    material.dispose();
    renderer.dispose();
  };
}
