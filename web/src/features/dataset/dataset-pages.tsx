import { DatasetDetailPage } from './dataset-detail-page';
import { DatasetFormPage } from './dataset-form-page';
import { DatasetsPage } from './dataset-list-page';

/** The dataset screens: the list (all and mine), the form (new and edit) and a dataset's detail. */
export const DATASET_PAGES = { DatasetsPage, DatasetFormPage, DatasetDetailPage };
