import type { Concept } from '../../store/schema';

// XBRL tags per canonical concept, best first. Filers pick different tags for the same line
// (and switch tags over the years, e.g. SalesRevenueNet → RevenueFromContractWithCustomer... in
// 2018), so each concept lists its fallbacks; within one filing the first listed tag with a value
// wins. us-gaap comes before ifrs-full so a filer with both keeps its US GAAP figures.
export const CONCEPT_TAGS: Record<Concept, readonly string[]> = {
  revenue: [
    'us-gaap:Revenues',
    'us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax',
    'us-gaap:RevenueFromContractWithCustomerIncludingAssessedTax',
    'us-gaap:SalesRevenueNet',
    'us-gaap:SalesRevenueGoodsNet',
    'us-gaap:SalesRevenueServicesNet',
    'us-gaap:RevenuesNetOfInterestExpense',
    'ifrs-full:Revenue',
    'ifrs-full:RevenueFromContractsWithCustomers',
  ],
  cost_of_revenue: [
    'us-gaap:CostOfRevenue',
    'us-gaap:CostOfGoodsAndServicesSold',
    'us-gaap:CostOfGoodsSold',
    'us-gaap:CostOfServices',
    'ifrs-full:CostOfSales',
  ],
  gross_profit: ['us-gaap:GrossProfit', 'ifrs-full:GrossProfit'],
  sga: [
    'us-gaap:SellingGeneralAndAdministrativeExpense',
    'us-gaap:GeneralAndAdministrativeExpense',
    'ifrs-full:SellingGeneralAndAdministrativeExpense',
    'ifrs-full:AdministrativeExpense',
  ],
  rnd: [
    'us-gaap:ResearchAndDevelopmentExpense',
    'us-gaap:ResearchAndDevelopmentExpenseExcludingAcquiredInProcessCost',
    'ifrs-full:ResearchAndDevelopmentExpense',
  ],
  operating_income: ['us-gaap:OperatingIncomeLoss', 'ifrs-full:ProfitLossFromOperatingActivities'],
  interest_expense: [
    'us-gaap:InterestExpense',
    'us-gaap:InterestExpenseDebt',
    'us-gaap:InterestExpenseNonoperating',
    'ifrs-full:InterestExpense',
    'ifrs-full:FinanceCosts',
  ],
  pretax_income: [
    'us-gaap:IncomeLossFromContinuingOperationsBeforeIncomeTaxesExtraordinaryItemsNoncontrollingInterest',
    'us-gaap:IncomeLossFromContinuingOperationsBeforeIncomeTaxesMinorityInterestAndIncomeLossFromEquityMethodInvestments',
    'ifrs-full:ProfitLossBeforeTax',
  ],
  income_tax: ['us-gaap:IncomeTaxExpenseBenefit', 'ifrs-full:IncomeTaxExpenseContinuingOperations'],
  net_income: [
    'us-gaap:NetIncomeLoss',
    'us-gaap:NetIncomeLossAvailableToCommonStockholdersBasic',
    'us-gaap:ProfitLoss',
    'ifrs-full:ProfitLossAttributableToOwnersOfParent',
    'ifrs-full:ProfitLoss',
  ],
  eps_basic: ['us-gaap:EarningsPerShareBasic', 'us-gaap:EarningsPerShareBasicAndDiluted', 'ifrs-full:BasicEarningsLossPerShare'],
  eps_diluted: ['us-gaap:EarningsPerShareDiluted', 'us-gaap:EarningsPerShareBasicAndDiluted', 'ifrs-full:DilutedEarningsLossPerShare'],
  depreciation: [
    'us-gaap:DepreciationDepletionAndAmortization',
    'us-gaap:DepreciationAndAmortization',
    'us-gaap:DepreciationAmortizationAndAccretionNet',
    'us-gaap:Depreciation',
    'ifrs-full:DepreciationAndAmortisationExpense',
    'ifrs-full:AdjustmentsForDepreciationAndAmortisationExpense',
  ],
  operating_cash_flow: [
    'us-gaap:NetCashProvidedByUsedInOperatingActivities',
    'us-gaap:NetCashProvidedByUsedInOperatingActivitiesContinuingOperations',
    'ifrs-full:CashFlowsFromUsedInOperatingActivities',
  ],
  capex: [
    'us-gaap:PaymentsToAcquirePropertyPlantAndEquipment',
    'us-gaap:PaymentsToAcquireProductiveAssets',
    'ifrs-full:PurchaseOfPropertyPlantAndEquipmentClassifiedAsInvestingActivities',
  ],
  dividends_paid: [
    'us-gaap:PaymentsOfDividends',
    'us-gaap:PaymentsOfDividendsCommonStock',
    'ifrs-full:DividendsPaidClassifiedAsFinancingActivities',
  ],
  share_buybacks: ['us-gaap:PaymentsForRepurchaseOfCommonStock', 'ifrs-full:PaymentsToAcquireOrRedeemEntitysShares'],
  shares_diluted_avg: ['us-gaap:WeightedAverageNumberOfDilutedSharesOutstanding', 'ifrs-full:AdjustedWeightedAverageShares'],
  shares_outstanding: [
    'us-gaap:CommonStockSharesOutstanding',
    'dei:EntityCommonStockSharesOutstanding',
    'ifrs-full:NumberOfSharesOutstanding',
  ],
  cash: [
    'us-gaap:CashAndCashEquivalentsAtCarryingValue',
    'us-gaap:CashCashEquivalentsRestrictedCashAndRestrictedCashEquivalents',
    'us-gaap:Cash',
    'ifrs-full:CashAndCashEquivalents',
  ],
  receivables: ['us-gaap:AccountsReceivableNetCurrent', 'us-gaap:ReceivablesNetCurrent', 'ifrs-full:TradeAndOtherCurrentReceivables'],
  inventory: ['us-gaap:InventoryNet', 'ifrs-full:Inventories'],
  current_assets: ['us-gaap:AssetsCurrent', 'ifrs-full:CurrentAssets'],
  total_assets: ['us-gaap:Assets', 'ifrs-full:Assets'],
  current_liabilities: ['us-gaap:LiabilitiesCurrent', 'ifrs-full:CurrentLiabilities'],
  total_liabilities: ['us-gaap:Liabilities', 'ifrs-full:Liabilities'],
  long_term_debt: [
    'us-gaap:LongTermDebtNoncurrent',
    'us-gaap:LongTermDebtAndCapitalLeaseObligations',
    'ifrs-full:LongtermBorrowings',
    'ifrs-full:NoncurrentPortionOfNoncurrentBorrowings',
  ],
  short_term_debt: [
    'us-gaap:DebtCurrent',
    'us-gaap:LongTermDebtCurrent',
    'us-gaap:ShortTermBorrowings',
    'us-gaap:CommercialPaper',
    'ifrs-full:CurrentPortionOfLongtermBorrowings',
    'ifrs-full:ShorttermBorrowings',
  ],
  equity: [
    'us-gaap:StockholdersEquity',
    'us-gaap:StockholdersEquityIncludingPortionAttributableToNoncontrollingInterest',
    'ifrs-full:EquityAttributableToOwnersOfParent',
    'ifrs-full:Equity',
  ],
  retained_earnings: ['us-gaap:RetainedEarningsAccumulatedDeficit', 'ifrs-full:RetainedEarnings'],
};

/**
 * Per-share and average-share figures do not add up over quarters (the share count moves), so
 * Q4 = FY − 9M would be wrong for them: only directly reported quarters are kept.
 */
export const NON_ADDITIVE: ReadonlySet<Concept> = new Set<Concept>(['eps_basic', 'eps_diluted', 'shares_diluted_avg']);

export const ANNUAL_FORMS: ReadonlySet<string> = new Set(['10-K', '10-K/A', '20-F', '20-F/A', '40-F', '40-F/A']);
export const QUARTERLY_FORMS: ReadonlySet<string> = new Set(['10-Q', '10-Q/A']);
