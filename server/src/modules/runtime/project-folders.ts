import { chmodSync, lchownSync, lstatSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { DatasetCache, placeDatasetLinks, type DatasetMount } from './dataset-mounts.js';
import type { RuntimeProject } from './runtime-driver.js';

/** The project user's folders in its project's folder: its files, its home, its virtual environment. */
const PROJECT_FOLDERS = ['workspace', 'home', 'venv'] as const;

/**
 * Where the local driver keeps each project (`DATA_DIR/runtime/<project>`: workspace, virtual environment, home)
 * and who owns it: run as root, each project has its own system user, `uidBase + seq`. Only paths and ownership
 * live here, so a backup or a restore can reach workspaces without a driver's processes.
 */
export class ProjectFolders {
  private readonly isRoot = process.getuid?.() === 0;

  constructor(
    readonly rootDir: string,
    private readonly uidBase: number,
  ) {}

  projectDir(projectId: string) {
    return path.join(this.rootDir, projectId);
  }

  workspaceDir(project: RuntimeProject): string {
    return path.join(this.projectDir(project.id), 'workspace');
  }

  /** The project's system user, when this process can hand files to one. */
  identity(project: RuntimeProject): { uid: number; gid: number } | null {
    if (!this.isRoot) return null;
    const uid = this.uidBase + project.seq;
    return { uid, gid: uid };
  }

  /**
   * Creates the project's folders when missing and answers its workspace. Run as root, the project's folder is
   * root's (mode 0710, group the project's) and only the folders in it (`workspace`, `home`, `venv`) are the
   * project user's: the user cannot swap one of them for a link to somewhere else that this process would then hand
   * over or write through. Whatever stands where one of them should be and is no folder (a link, a file) is removed.
   */
  ensureWorkspace(project: RuntimeProject): string {
    const dir = this.projectDir(project.id);
    const id = this.identity(project);
    mkdirSync(dir, { recursive: true });
    // The project's folder is in the root's `rootDir` (0711): its user can neither make it nor replace it.
    if (id) lchownSync(dir, 0, id.gid);
    chmodSync(dir, id ? 0o710 : 0o700);
    for (const name of PROJECT_FOLDERS) {
      const folder = path.join(dir, name);
      const stat = lstatSync(folder, { throwIfNoEntry: false });
      if (stat && !stat.isDirectory()) rmSync(folder, { force: true });
      mkdirSync(folder, { recursive: true });
      if (id) lchownSync(folder, id.uid, id.gid);
    }
    return this.workspaceDir(project);
  }

  /** Hands `absolutePath` and everything under it to the project's user; links are handed over, never followed. */
  claim(project: RuntimeProject, absolutePath: string): void {
    const id = this.identity(project);
    if (!id) return;
    const walk = (p: string) => {
      const stat = lstatSync(p);
      lchownSync(p, id.uid, id.gid);
      if (stat.isDirectory()) for (const entry of readdirSync(p)) walk(path.join(p, entry));
    };
    walk(absolutePath);
  }
}

/** The folder calls of a driver whose workspaces are folders of this machine (or of a volume mounted here). */
export abstract class FolderWorkspaces {
  protected abstract readonly folders: ProjectFolders;
  private cache: DatasetCache | null = null;

  /** Dataset versions' read-only copies, `<root>/datasets/<versionId>`: beside the projects, on the same disk. */
  get datasets(): DatasetCache {
    this.cache ??= new DatasetCache(path.join(this.folders.rootDir, 'datasets'));
    return this.cache;
  }

  /** Links `datasets/<mountName>` of the workspace to the copies, as the project's user (see dataset-mounts.ts). */
  mountDatasets(project: RuntimeProject, mounts: readonly DatasetMount[]): Promise<{ blocked: string[] }> {
    return placeDatasetLinks(this.ensureWorkspace(project), this.datasets, mounts, this.folders.identity(project));
  }

  workspaceDir(project: RuntimeProject): string {
    return this.folders.workspaceDir(project);
  }

  ensureWorkspace(project: RuntimeProject): string {
    return this.folders.ensureWorkspace(project);
  }

  claim(project: RuntimeProject, absolutePath: string): void {
    this.folders.claim(project, absolutePath);
  }
}
