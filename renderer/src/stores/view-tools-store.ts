import { defineStore } from 'pinia';
import { ref, shallowRef } from 'vue';

/** Faces shown alone: some faces of one walkmesh of one tab. */
export interface IsolatedFaces {
  tab: string;
  mesh: number;
  faces: Uint32Array;
}

/** The viewport's seeing aids (issue 16): x-ray through floors, the selection shown alone. */
export const useViewToolsStore = defineStore('view-tools', () => {
  const xray = ref(false);
  const isolated = shallowRef<IsolatedFaces | null>(null);

  /** The measure tool: on, and the points picked (two at most; a third starts again). */
  const measuring = ref(false);
  const measured = ref<[number, number, number][]>([]);

  function setMeasuring(on: boolean): void {
    measuring.value = on;
    measured.value = [];
  }

  function measurePoint(p: [number, number, number]): void {
    measured.value = measured.value.length >= 2 ? [p] : [...measured.value, p];
  }

  function clearMeasure(): void {
    measured.value = [];
  }

  function isolate(faces: IsolatedFaces | null): void {
    isolated.value = faces;
  }

  function setXray(on: boolean): void {
    xray.value = on;
  }

  return { xray, isolated, measuring, measured, setXray, isolate, setMeasuring, measurePoint, clearMeasure };
});
