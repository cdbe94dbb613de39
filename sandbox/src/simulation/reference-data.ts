import type { Place } from '../upstream/upstream-api.js';

/**
 * The fixed tables the simulator draws from: real UN/LOCODEs, carriers and plausible names.
 * Company names are fictitious.
 */

export type Region = 'ASIA' | 'EUROPE' | 'NORTH_AMERICA' | 'SOUTH_AMERICA';

export interface ForeignPlace extends Place {
  region: Region;
}

const place = (code: string, name: string): Place => ({ code, name });
const foreign = (code: string, name: string, region: Region): ForeignPlace => ({ code, name, region });

/** Repeats weight the big ports (Santos handles a large share of Brazil's containers). */
export const BR_SEAPORTS: readonly Place[] = [
  place('BRSSZ', 'Santos'),
  place('BRSSZ', 'Santos'),
  place('BRSSZ', 'Santos'),
  place('BRSSZ', 'Santos'),
  place('BRPNG', 'Paranaguá'),
  place('BRPNG', 'Paranaguá'),
  place('BRITJ', 'Itajaí'),
  place('BRNVT', 'Navegantes'),
  place('BRRIG', 'Rio Grande'),
  place('BRRIO', 'Rio de Janeiro'),
  place('BRSUA', 'Suape'),
  place('BRPEC', 'Pecém'),
  place('BRVIX', 'Vitória'),
  place('BRSFS', 'São Francisco do Sul'),
];

export const BR_AIRPORTS: readonly Place[] = [
  place('BRGRU', 'Guarulhos'),
  place('BRGRU', 'Guarulhos'),
  place('BRVCP', 'Viracopos'),
  place('BRVCP', 'Viracopos'),
  place('BRCWB', 'Curitiba'),
  place('BRPOA', 'Porto Alegre'),
  place('BRMAO', 'Manaus'),
  place('BRREC', 'Recife'),
];

export const BR_ROAD_CITIES: readonly Place[] = [
  place('BRSAO', 'São Paulo'),
  place('BRCWB', 'Curitiba'),
  place('BRPOA', 'Porto Alegre'),
  place('BRCXJ', 'Caxias do Sul'),
  place('BRURG', 'Uruguaiana'),
  place('BRIGU', 'Foz do Iguaçu'),
];

/** Where importers take delivery (the DELIVERED event of an import). */
export const BR_INLAND_CITIES: readonly Place[] = [
  place('BRSAO', 'São Paulo'),
  place('BRCPQ', 'Campinas'),
  place('BRJOI', 'Joinville'),
  place('BRCWB', 'Curitiba'),
  place('BRPOA', 'Porto Alegre'),
  place('BRBHZ', 'Belo Horizonte'),
  place('BRMAO', 'Manaus'),
  place('BRCXJ', 'Caxias do Sul'),
];

export const FOREIGN_SEAPORTS: readonly ForeignPlace[] = [
  foreign('CNSHA', 'Shanghai', 'ASIA'),
  foreign('CNSHA', 'Shanghai', 'ASIA'),
  foreign('CNNGB', 'Ningbo', 'ASIA'),
  foreign('CNNGB', 'Ningbo', 'ASIA'),
  foreign('CNYTN', 'Yantian', 'ASIA'),
  foreign('CNTAO', 'Qingdao', 'ASIA'),
  foreign('KRPUS', 'Busan', 'ASIA'),
  foreign('SGSIN', 'Singapore', 'ASIA'),
  foreign('INNSA', 'Nhava Sheva', 'ASIA'),
  foreign('JPYOK', 'Yokohama', 'ASIA'),
  foreign('DEHAM', 'Hamburg', 'EUROPE'),
  foreign('NLRTM', 'Rotterdam', 'EUROPE'),
  foreign('BEANR', 'Antwerp', 'EUROPE'),
  foreign('ESVLC', 'Valencia', 'EUROPE'),
  foreign('ITGOA', 'Genoa', 'EUROPE'),
  foreign('PTLIS', 'Lisbon', 'EUROPE'),
  foreign('USNYC', 'New York', 'NORTH_AMERICA'),
  foreign('USHOU', 'Houston', 'NORTH_AMERICA'),
  foreign('USSAV', 'Savannah', 'NORTH_AMERICA'),
  foreign('MXVER', 'Veracruz', 'NORTH_AMERICA'),
  foreign('ARBUE', 'Buenos Aires', 'SOUTH_AMERICA'),
  foreign('UYMVD', 'Montevideo', 'SOUTH_AMERICA'),
];

export const FOREIGN_AIRPORTS: readonly ForeignPlace[] = [
  foreign('DEFRA', 'Frankfurt am Main', 'EUROPE'),
  foreign('NLAMS', 'Amsterdam', 'EUROPE'),
  foreign('FRPAR', 'Paris', 'EUROPE'),
  foreign('GBLON', 'London', 'EUROPE'),
  foreign('USMIA', 'Miami', 'NORTH_AMERICA'),
  foreign('USATL', 'Atlanta', 'NORTH_AMERICA'),
  foreign('USNYC', 'New York', 'NORTH_AMERICA'),
  foreign('CNSHA', 'Shanghai', 'ASIA'),
  foreign('HKHKG', 'Hong Kong', 'ASIA'),
  foreign('ARBUE', 'Buenos Aires', 'SOUTH_AMERICA'),
];

export const FOREIGN_ROAD_CITIES: readonly ForeignPlace[] = [
  foreign('ARBUE', 'Buenos Aires', 'SOUTH_AMERICA'),
  foreign('ARROS', 'Rosario', 'SOUTH_AMERICA'),
  foreign('ARCOR', 'Córdoba', 'SOUTH_AMERICA'),
  foreign('UYMVD', 'Montevideo', 'SOUTH_AMERICA'),
  foreign('PYASU', 'Asunción', 'SOUTH_AMERICA'),
  foreign('CLSCL', 'Santiago', 'SOUTH_AMERICA'),
];

export const SEA_HUBS: Readonly<Record<Region, readonly Place[]>> = {
  ASIA: [place('SGSIN', 'Singapore'), place('LKCMB', 'Colombo'), place('KRPUS', 'Busan')],
  EUROPE: [place('ESALG', 'Algeciras'), place('MAPTM', 'Tanger Med')],
  NORTH_AMERICA: [place('PAMIT', 'Manzanillo'), place('BSFPO', 'Freeport')],
  SOUTH_AMERICA: [place('UYMVD', 'Montevideo')],
};

export const AIR_HUBS: Readonly<Record<Region, readonly Place[]>> = {
  ASIA: [place('AEDXB', 'Dubai'), place('QADOH', 'Doha')],
  EUROPE: [place('DEFRA', 'Frankfurt am Main'), place('PTLIS', 'Lisbon')],
  NORTH_AMERICA: [place('USMIA', 'Miami')],
  SOUTH_AMERICA: [place('CLSCL', 'Santiago')],
};

/** Typical port-to-port days (min, max) between Brazil and a region, by mode. */
export const TRANSIT_DAYS: Readonly<Record<Region, { sea: [number, number]; air: [number, number] }>> = {
  ASIA: { sea: [30, 42], air: [2, 4] },
  EUROPE: { sea: [18, 26], air: [1, 2] },
  NORTH_AMERICA: { sea: [12, 20], air: [1, 2] },
  SOUTH_AMERICA: { sea: [3, 7], air: [1, 1] },
};

export const TRANSSHIPMENT_CHANCE: Readonly<Record<Region, number>> = {
  ASIA: 0.45,
  EUROPE: 0.2,
  NORTH_AMERICA: 0.2,
  SOUTH_AMERICA: 0.05,
};

export interface ShippingLine {
  /** Short name used in descriptions and `Voyage.carrier`. */
  name: string;
  legalName: string;
  country: string;
  /** Bill of lading prefix (the line's SCAC). */
  scac: string;
  bookingPrefix: string;
  ownerCodes: readonly string[];
  vessels: readonly string[];
  /** Days of free time the line grants an import container from discharge (its tariff). */
  freeTimeDays: number;
}

export const SHIPPING_LINES: readonly ShippingLine[] = [
  {
    name: 'MSC',
    legalName: 'MSC Mediterranean Shipping Company S.A.',
    country: 'CH',
    scac: 'MEDU',
    bookingPrefix: 'MSC',
    ownerCodes: ['MSCU', 'MEDU', 'MSDU'],
    vessels: ['MSC AURORA', 'MSC LORETO', 'MSC ISABELLA', 'MSC ANNA', 'MSC SAO PAULO'],
    freeTimeDays: 7,
  },
  {
    name: 'Maersk',
    legalName: 'A.P. Moller - Maersk A/S',
    country: 'DK',
    scac: 'MAEU',
    bookingPrefix: 'MAE',
    ownerCodes: ['MAEU', 'MSKU', 'MRKU'],
    vessels: ['MAERSK SEMARANG', 'MAERSK LIMA', 'MAERSK ESSEN', 'MAERSK CAMPINAS'],
    freeTimeDays: 10,
  },
  {
    name: 'CMA CGM',
    legalName: 'CMA CGM S.A.',
    country: 'FR',
    scac: 'CMDU',
    bookingPrefix: 'CMA',
    ownerCodes: ['CMAU', 'CGMU', 'APZU'],
    vessels: ['CMA CGM AMAZON', 'CMA CGM RIO GRANDE', 'CMA CGM VOLGA', 'CMA CGM LAPEROUSE'],
    freeTimeDays: 7,
  },
  {
    name: 'Hapag-Lloyd',
    legalName: 'Hapag-Lloyd AG',
    country: 'DE',
    scac: 'HLCU',
    bookingPrefix: 'HLC',
    ownerCodes: ['HLXU', 'HLBU', 'FANU'],
    vessels: ['SANTOS EXPRESS', 'BUENOS AIRES EXPRESS', 'HAMBURG EXPRESS', 'VALPARAISO EXPRESS'],
    freeTimeDays: 14,
  },
  {
    name: 'COSCO',
    legalName: 'COSCO Shipping Lines Co., Ltd.',
    country: 'CN',
    scac: 'COSU',
    bookingPrefix: 'COS',
    ownerCodes: ['CSNU', 'CBHU', 'CCLU'],
    vessels: ['COSCO SHIPPING ARIES', 'COSCO SHIPPING VIRGO', 'COSCO FORTUNE'],
    freeTimeDays: 5,
  },
  {
    name: 'ONE',
    legalName: 'Ocean Network Express Pte. Ltd.',
    country: 'SG',
    scac: 'ONEY',
    bookingPrefix: 'ONE',
    ownerCodes: ['ONEU', 'NYKU', 'TCLU'],
    vessels: ['ONE HARMONY', 'ONE CONTINUITY', 'ONE AQUILA'],
    freeTimeDays: 10,
  },
  {
    name: 'Evergreen',
    legalName: 'Evergreen Marine Corp.',
    country: 'TW',
    scac: 'EGLV',
    bookingPrefix: 'EGL',
    ownerCodes: ['EGHU', 'EMCU', 'EISU'],
    vessels: ['EVER LEGEND', 'EVER LUCKY', 'EVER LOVELY'],
    freeTimeDays: 7,
  },
  {
    name: 'HMM',
    legalName: 'HMM Co., Ltd.',
    country: 'KR',
    scac: 'HDMU',
    bookingPrefix: 'HMM',
    ownerCodes: ['HMMU', 'HDMU', 'TGHU'],
    vessels: ['HMM ALGECIRAS', 'HMM COPENHAGEN', 'HMM RIO'],
    freeTimeDays: 14,
  },
];

export interface Airline {
  name: string;
  legalName: string;
  country: string;
  iata: string;
  /** IATA air waybill prefix. */
  awbPrefix: string;
}

export const AIRLINES: readonly Airline[] = [
  {
    name: 'LATAM Cargo',
    legalName: 'LATAM Airlines Group S.A.',
    country: 'CL',
    iata: 'LA',
    awbPrefix: '045',
  },
  { name: 'Lufthansa Cargo', legalName: 'Lufthansa Cargo AG', country: 'DE', iata: 'LH', awbPrefix: '020' },
  {
    name: 'American Airlines Cargo',
    legalName: 'American Airlines, Inc.',
    country: 'US',
    iata: 'AA',
    awbPrefix: '001',
  },
  {
    name: 'Air France KLM Cargo',
    legalName: 'Société Air France',
    country: 'FR',
    iata: 'AF',
    awbPrefix: '057',
  },
  { name: 'Emirates SkyCargo', legalName: 'Emirates', country: 'AE', iata: 'EK', awbPrefix: '176' },
  {
    name: 'Qatar Airways Cargo',
    legalName: 'Qatar Airways Group Q.C.S.C.',
    country: 'QA',
    iata: 'QR',
    awbPrefix: '157',
  },
];

export interface RoadCarrier {
  name: string;
  country: string;
  /** 8-digit CNPJ base; null for a foreign carrier. */
  cnpjBase: string | null;
}

export const ROAD_CARRIERS: readonly RoadCarrier[] = [
  { name: 'Transportadora Rodosul Ltda', country: 'BR', cnpjBase: '48213977' },
  { name: 'Expresso Mercosul Transportes Ltda', country: 'BR', cnpjBase: '27661530' },
  { name: 'Transportes del Plata S.A.', country: 'AR', cnpjBase: null },
  { name: 'Cordillera Cargo S.A.', country: 'CL', cnpjBase: null },
];

export interface BrazilianCompany {
  name: string;
  cnpjBase: string;
}

export const CUSTOMS_BROKERS: readonly BrazilianCompany[] = [
  { name: 'Despachos Aduaneiros Paulista Ltda', cnpjBase: '61548290' },
  { name: 'Comissária Porto Seguro Despachos Ltda', cnpjBase: '09337182' },
  { name: 'Sul Aduaneira Assessoria em Comércio Exterior Ltda', cnpjBase: '33180476' },
];

export const FREIGHT_FORWARDERS: readonly BrazilianCompany[] = [
  { name: 'Atlântico Logística Internacional Ltda', cnpjBase: '17604253' },
  { name: 'Rota Global Agenciamento de Cargas Ltda', cnpjBase: '52093318' },
  { name: 'Cruzeiro Freight Forwarding Ltda', cnpjBase: '40271865' },
];

/** Foreign trading partners by ISO 3166-1 country. */
export const FOREIGN_COMPANIES: Readonly<Record<string, readonly string[]>> = {
  CN: [
    'Ningbo Sunrise Auto Parts Co., Ltd.',
    'Shenzhen Brightway Electronics Co., Ltd.',
    'Qingdao Haida Machinery Co., Ltd.',
  ],
  KR: ['Hanbit Industrial Co., Ltd.'],
  SG: ['Straits Components Pte. Ltd.'],
  IN: ['Mahalaxmi Textiles Pvt. Ltd.'],
  JP: ['Kansai Precision Industries K.K.'],
  HK: ['Pearl Delta Trading Ltd.'],
  DE: ['Hansa Maschinenbau GmbH', 'Rheinland Chemie GmbH'],
  NL: ['Van der Berg Trading B.V.'],
  BE: ['Scheldt Food Distribution NV'],
  ES: ['Levante Cerámica S.L.'],
  IT: ['Officine Liguri S.p.A.'],
  PT: ['Tejo Cortiças Lda.'],
  FR: ['Maison Durand Export SAS'],
  GB: ['Thames Instruments Ltd.'],
  US: ['Lakeshore Industrial Supply Inc.', 'Gulf Coast Polymers LLC'],
  MX: ['Grupo Industrial Veracruzano S.A. de C.V.'],
  AR: ['Pampa Alimentos S.A.', 'Metalúrgica del Litoral S.A.'],
  UY: ['Oriental Lácteos S.A.'],
  PY: ['Guaraní Agroindustrial S.A.'],
  CL: ['Andes Frutas Export S.A.'],
};

export interface CargoKind {
  description: string;
  reefer: boolean;
}

export const IMPORT_CARGO: readonly CargoKind[] = [
  { description: 'Peças automotivas', reefer: false },
  { description: 'Máquinas e equipamentos industriais', reefer: false },
  { description: 'Componentes eletrônicos', reefer: false },
  { description: 'Resinas plásticas (polietileno)', reefer: false },
  { description: 'Produtos químicos não perigosos', reefer: false },
  { description: 'Tecidos de algodão', reefer: false },
  { description: 'Ferramentas manuais', reefer: false },
  { description: 'Revestimentos cerâmicos', reefer: false },
  { description: 'Azeite de oliva', reefer: false },
];

export const EXPORT_CARGO: readonly CargoKind[] = [
  { description: 'Café verde em grãos', reefer: false },
  { description: 'Carne bovina congelada', reefer: true },
  { description: 'Carne de frango congelada', reefer: true },
  { description: 'Celulose branqueada', reefer: false },
  { description: 'Calçados de couro', reefer: false },
  { description: 'Suco de laranja concentrado congelado', reefer: true },
  { description: 'Autopeças', reefer: false },
  { description: 'Granito em chapas', reefer: false },
];

/** Customers every configuration starts with; the first three are the demo's. */
export const NAMED_CUSTOMERS: readonly { id: string; name: string; cnpjBase: string }[] = [
  { id: 'acme', name: 'ACME Importadora Ltda', cnpjBase: '12345678' },
  { id: 'globex', name: 'Globex Comércio Exterior S.A.', cnpjBase: '23456789' },
  { id: 'initech', name: 'Initech Tecnologia Ltda', cnpjBase: '34567890' },
  { id: 'umbrella', name: 'Umbrella Farmacêutica Ltda', cnpjBase: '45678901' },
  { id: 'stark', name: 'Stark Indústrias do Brasil S.A.', cnpjBase: '56789012' },
  { id: 'wayne', name: 'Wayne Logística Ltda', cnpjBase: '67890123' },
  { id: 'soylent', name: 'Soylent Alimentos S.A.', cnpjBase: '78901234' },
  { id: 'cyberdyne', name: 'Cyberdyne Sistemas Ltda', cnpjBase: '89012345' },
  { id: 'wonka', name: 'Wonka Chocolates Ltda', cnpjBase: '90123456' },
  { id: 'tyrell', name: 'Tyrell Engenharia S.A.', cnpjBase: '01234567' },
  { id: 'hooli', name: 'Hooli Tecnologia Ltda', cnpjBase: '13579246' },
  { id: 'vandelay', name: 'Vandelay Indústrias Ltda', cnpjBase: '24681357' },
];

/** Parts of generated customer names, combined without repeats. */
export const CUSTOMER_NAME_PREFIXES: readonly string[] = [
  'Atlântica',
  'Horizonte',
  'Serra Azul',
  'Pampa',
  'Cerrado',
  'Litoral',
  'Aurora',
  'Boreal',
  'Ipê',
  'Jequitibá',
  'Tropical',
  'Planalto',
  'Vale Verde',
  'Capixaba',
  'Paulista',
  'Mineira',
  'Gaúcha',
  'Nordeste',
  'Amazônia',
  'Pantanal',
];

export const CUSTOMER_NAME_SECTORS: readonly string[] = [
  'Comércio Exterior',
  'Indústria e Comércio',
  'Têxtil',
  'Alimentos',
  'Metalúrgica',
  'Química',
  'Autopeças',
  'Eletrônicos',
  'Máquinas',
  'Agroindustrial',
  'Distribuidora',
  'Importadora',
];

export const CONTAINER_TYPES = {
  '20GP': { volumeM3: 33.2, maxPayloadKg: 28000 },
  '40GP': { volumeM3: 67.7, maxPayloadKg: 26500 },
  '40HC': { volumeM3: 76.4, maxPayloadKg: 26500 },
  '40RH': { volumeM3: 67.5, maxPayloadKg: 29000 },
} as const;
export type ContainerType = keyof typeof CONTAINER_TYPES;

export const LEASING_OWNER_CODES: readonly string[] = [
  'TGHU',
  'TCLU',
  'GESU',
  'CAIU',
  'TRHU',
  'SEGU',
  'FCIU',
];

export const INCOTERMS = {
  SEA: ['FOB', 'FOB', 'CIF', 'CFR', 'EXW', 'FCA', 'DAP'],
  AIR: ['FCA', 'EXW', 'CPT', 'CIP', 'DAP'],
  ROAD: ['FCA', 'DAP', 'CPT', 'EXW'],
} as const;

export const CANCELLATION_REASONS: readonly string[] = [
  'Processo cancelado a pedido do cliente',
  'Processo cancelado: pedido de compra cancelado',
  'Processo cancelado: embarque desistido pelo exportador',
  'Processo cancelado: carga substituída por outro processo',
];

export const ROUTINE_NOTES: Readonly<Record<'IMPORT' | 'EXPORT', readonly string[]>> = {
  IMPORT: [
    'Numerário recebido do cliente',
    'Licença de importação (LI) deferida',
    'Seguro internacional averbado',
    'Frete internacional pago ao agente',
    'Cliente solicitou prioridade na liberação',
    'Armazenagem faturada pelo terminal',
  ],
  EXPORT: [
    'Certificado de origem emitido',
    'Numerário recebido do cliente',
    'Draft do BL aprovado pelo cliente',
    'Seguro internacional averbado',
    'Cliente solicitou envio dos documentos por courier',
  ],
};

export const CUSTOMS_REQUIREMENTS: readonly string[] = [
  'Exigência fiscal: apresentar catálogo técnico da mercadoria',
  'Exigência fiscal: retificar a classificação fiscal (NCM)',
  'Exigência fiscal: apresentar certificado de origem original',
  'Conferência física da carga agendada pela Receita Federal',
];

export const CHANNEL_NAMES = { GREEN: 'verde', YELLOW: 'amarelo', RED: 'vermelho', GRAY: 'cinza' } as const;

export const PROVISIONAL_NOTES: readonly string[] = [
  'Aviso provisório: previsão de chegada sujeita a confirmação do agente',
  'Aviso provisório: possível omissão de escala, aguardando confirmação do transportador',
  'Aviso provisório: pendência documental em análise',
];
