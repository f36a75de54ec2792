import { defineStore } from 'pinia';
import { ref } from 'vue';

/** A face of the active file: which walkmesh and which face in it. */
export interface FaceRef {
  mesh: number;
  face: number;
}

/** The face under the cursor and the selected one, for the status bar and the inspector. */
export const useSelectionStore = defineStore('selection', () => {
  const hovered = ref<FaceRef | null>(null);
  const selected = ref<FaceRef | null>(null);
  /** Bumped when the camera should move to the selected face (a finding was clicked). */
  const focusRequest = ref(0);

  function hover(face: FaceRef | null): void {
    if (face?.mesh === hovered.value?.mesh && face?.face === hovered.value?.face) return;
    hovered.value = face;
  }

  function select(face: FaceRef | null): void {
    selected.value = face;
  }

  function focus(face: FaceRef): void {
    selected.value = face;
    focusRequest.value++;
  }

  function clear(): void {
    hovered.value = null;
    selected.value = null;
  }

  return { hovered, selected, focusRequest, hover, select, focus, clear };
});
