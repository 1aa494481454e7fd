import { chmodSync, chownSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { RuntimeProject } from './runtime-driver.js';

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

  ensureWorkspace(project: RuntimeProject): string {
    const dir = this.projectDir(project.id);
    const workspace = this.workspaceDir(project);
    const id = this.identity(project);
    for (const folder of [dir, workspace]) {
      mkdirSync(folder, { recursive: true });
      if (id) chownSync(folder, id.uid, id.gid);
    }
    chmodSync(dir, 0o700);
    return workspace;
  }

  /** Hands `absolutePath` and everything under it to the project's user. */
  claim(project: RuntimeProject, absolutePath: string): void {
    const id = this.identity(project);
    if (!id) return;
    const walk = (p: string) => {
      const stat = lstatSync(p);
      chownSync(p, id.uid, id.gid);
      if (stat.isDirectory()) for (const entry of readdirSync(p)) walk(path.join(p, entry));
    };
    walk(absolutePath);
  }
}

/** The folder calls of a driver whose workspaces are folders of this machine (or of a volume mounted here). */
export abstract class FolderWorkspaces {
  protected abstract readonly folders: ProjectFolders;

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
