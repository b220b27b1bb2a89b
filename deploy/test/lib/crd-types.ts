// Hand-written TypeScript shapes of the custom resources the manifests use, for the same
// unknown-field check the built-in kinds get from kubernetes-types. They cover the fields of the
// upstream CRDs that Switchboard uses or is likely to use; add a field here (from the upstream API
// reference) before using it in a manifest.
import type { LabelSelector, ObjectMeta } from 'kubernetes-types/meta/v1';
import type { Affinity, ResourceRequirements, Toleration } from 'kubernetes-types/core/v1';

// ---------------------------------------------------------------- monitoring.coreos.com/v1

export interface RelabelConfig {
  action?:
    | 'replace'
    | 'keep'
    | 'drop'
    | 'hashmod'
    | 'labelmap'
    | 'labeldrop'
    | 'labelkeep'
    | 'lowercase'
    | 'uppercase'
    | 'keepequal'
    | 'dropequal';
  modulus?: number;
  regex?: string;
  replacement?: string;
  separator?: string;
  sourceLabels?: string[];
  targetLabel?: string;
}

export interface ServiceMonitorEndpoint {
  port?: string;
  targetPort?: number | string;
  path?: string;
  scheme?: 'http' | 'https';
  interval?: string;
  scrapeTimeout?: string;
  honorLabels?: boolean;
  honorTimestamps?: boolean;
  params?: Record<string, string[]>;
  relabelings?: RelabelConfig[];
  metricRelabelings?: RelabelConfig[];
}

export interface ServiceMonitor {
  apiVersion: 'monitoring.coreos.com/v1';
  kind: 'ServiceMonitor';
  metadata: ObjectMeta;
  spec: {
    selector: LabelSelector;
    endpoints: ServiceMonitorEndpoint[];
    jobLabel?: string;
    namespaceSelector?: { any?: boolean; matchNames?: string[] };
    podTargetLabels?: string[];
    targetLabels?: string[];
    sampleLimit?: number;
  };
}

export interface PodMonitor {
  apiVersion: 'monitoring.coreos.com/v1';
  kind: 'PodMonitor';
  metadata: ObjectMeta;
  spec: {
    selector: LabelSelector;
    podMetricsEndpoints: Array<Omit<ServiceMonitorEndpoint, 'targetPort'>>;
    jobLabel?: string;
    namespaceSelector?: { any?: boolean; matchNames?: string[] };
    podTargetLabels?: string[];
    sampleLimit?: number;
  };
}

export interface PrometheusRuleRule {
  alert?: string;
  record?: string;
  expr: string;
  for?: string;
  keep_firing_for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

export interface PrometheusRule {
  apiVersion: 'monitoring.coreos.com/v1';
  kind: 'PrometheusRule';
  metadata: ObjectMeta;
  spec: {
    groups: Array<{
      name: string;
      interval?: string;
      limit?: number;
      partial_response_strategy?: string;
      rules: PrometheusRuleRule[];
    }>;
  };
}

// --------------------------------------------------------------------- postgresql.cnpg.io/v1

export interface CnpgCluster {
  apiVersion: 'postgresql.cnpg.io/v1';
  kind: 'Cluster';
  metadata: ObjectMeta;
  spec: {
    instances: number;
    imageName?: string;
    imagePullPolicy?: 'Always' | 'IfNotPresent' | 'Never';
    description?: string;
    primaryUpdateStrategy?: 'unsupervised' | 'supervised';
    primaryUpdateMethod?: 'switchover' | 'restart';
    enableSuperuserAccess?: boolean;
    superuserSecret?: { name: string };
    inheritedMetadata?: { labels?: Record<string, string>; annotations?: Record<string, string> };
    bootstrap?: {
      initdb?: {
        database?: string;
        owner?: string;
        secret?: { name: string };
        encoding?: string;
        localeCollate?: string;
        localeCType?: string;
        dataChecksums?: boolean;
        postInitApplicationSQL?: string[];
      };
      recovery?: { source?: string; database?: string; owner?: string; backup?: { name: string } };
      pg_basebackup?: { source: string; database?: string; owner?: string };
    };
    postgresql?: {
      parameters?: Record<string, string>;
      pg_hba?: string[];
      pg_ident?: string[];
      shared_preload_libraries?: string[];
      synchronous?: {
        method: 'any' | 'first';
        number: number;
        dataDurability?: 'required' | 'preferred';
        maxStandbyNamesFromCluster?: number;
        standbyNamesPre?: string[];
        standbyNamesPost?: string[];
      };
    };
    minSyncReplicas?: number;
    maxSyncReplicas?: number;
    storage?: { size?: string; storageClass?: string; resizeInUseVolumes?: boolean };
    walStorage?: { size?: string; storageClass?: string; resizeInUseVolumes?: boolean };
    resources?: ResourceRequirements;
    affinity?: {
      enablePodAntiAffinity?: boolean;
      topologyKey?: string;
      podAntiAffinityType?: 'preferred' | 'required';
      nodeSelector?: Record<string, string>;
      nodeAffinity?: Affinity['nodeAffinity'];
      tolerations?: Toleration[];
      additionalPodAffinity?: Affinity['podAffinity'];
      additionalPodAntiAffinity?: Affinity['podAntiAffinity'];
    };
    monitoring?: { enablePodMonitor?: boolean; customQueriesConfigMap?: Array<{ name: string; key: string }> };
    managed?: {
      roles?: Array<{
        name: string;
        ensure?: 'present' | 'absent';
        login?: boolean;
        passwordSecret?: { name: string };
      }>;
    };
    plugins?: Array<{ name: string; isWALArchiver?: boolean; parameters?: Record<string, string> }>;
    startDelay?: number;
    stopDelay?: number;
    switchoverDelay?: number;
    failoverDelay?: number;
    smartShutdownTimeout?: number;
    logLevel?: 'error' | 'warning' | 'info' | 'debug' | 'trace';
  };
}
