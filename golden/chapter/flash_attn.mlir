entry @flash_attn(%arg0: tile<ptr<f64>>, %arg1: tile<ptr<f64>>, %arg2: tile<ptr<f64>>, %arg3: tile<ptr<f64>>, %arg4: tile<f64>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<f64>>
  %5 = make_tensor_view %4, shape = [64, 32], strides = [32, 1] : tensor_view<64x32xf64, strides=[32,1]>
  %6 = make_partition_view %5 : partition_view<tile=(32x32), padding_value = zero, tensor_view<64x32xf64, strides=[32,1]>>
  %7, %8 = load_view_tko weak %6[%1, %2] token = %0 : partition_view<tile=(32x32), padding_value = zero, tensor_view<64x32xf64, strides=[32,1]>>, tile<i32> -> tile<32x32xf64>, token
  %9 = constant <i32: 0> : tile<i32>
  %10 = constant <i32: 2> : tile<i32>
  %11 = constant <i32: 1> : tile<i32>
  %12 = constant <f64: 0xFFF0000000000000> : tile<32x1xf64>
  %13 = constant <f64: 0.000000e+00> : tile<32x1xf64>
  %14 = constant <f64: 0.000000e+00> : tile<32x32xf64>
  %15, %16, %17, %18 = for %19 in (%9 to %10, step %11) : tile<i32> iter_values(%20 = %12, %21 = %13, %22 = %14, %23 = %8) -> (tile<32x1xf64>, tile<32x1xf64>, tile<32x32xf64>, token) {
    %24 = assume div_by<16>, %arg1 : tile<ptr<f64>>
    %25 = make_tensor_view %24, shape = [64, 32], strides = [32, 1] : tensor_view<64x32xf64, strides=[32,1]>
    %26 = make_partition_view %25 : partition_view<tile=(32x32), padding_value = zero, tensor_view<64x32xf64, strides=[32,1]>>
    %27, %28 = load_view_tko weak %26[%19, %2] token = %23 : partition_view<tile=(32x32), padding_value = zero, tensor_view<64x32xf64, strides=[32,1]>>, tile<i32> -> tile<32x32xf64>, token
    %29 = assume div_by<16>, %arg2 : tile<ptr<f64>>
    %30 = make_tensor_view %29, shape = [64, 32], strides = [32, 1] : tensor_view<64x32xf64, strides=[32,1]>
    %31 = make_partition_view %30 : partition_view<tile=(32x32), padding_value = zero, tensor_view<64x32xf64, strides=[32,1]>>
    %32, %33 = load_view_tko weak %31[%19, %2] token = %28 : partition_view<tile=(32x32), padding_value = zero, tensor_view<64x32xf64, strides=[32,1]>>, tile<i32> -> tile<32x32xf64>, token
    %34 = permute %27 [1, 0] : tile<32x32xf64> -> tile<32x32xf64>
    %35 = mmaf %7, %34, %14 : tile<32x32xf64>, tile<32x32xf64>, tile<32x32xf64>
    %36 = reshape %arg4 : tile<f64> -> tile<1x1xf64>
    %37 = broadcast %36 : tile<1x1xf64> -> tile<32x32xf64>
    %38 = mulf %35, %37  : tile<32x32xf64>
    %39 = reduce %38 dim=1 identities=[0xFFF0000000000000 : f64] : tile<32x32xf64> -> tile<32xf64> 
    (%40: tile<f64>, %41: tile<f64>) {
      %42 = maxf %40, %41 : tile<f64>
      yield %42 : tile<f64>
    }
    %43 = reshape %39 : tile<32xf64> -> tile<32x1xf64>
    %44 = maxf %20, %43 : tile<32x1xf64>
    %45 = subf %20, %44  : tile<32x1xf64>
    %46 = exp %45  : tile<32x1xf64>
    %47 = mulf %21, %46  : tile<32x1xf64>
    %48 = broadcast %44 : tile<32x1xf64> -> tile<32x32xf64>
    %49 = subf %38, %48  : tile<32x32xf64>
    %50 = exp %49  : tile<32x32xf64>
    %51 = reduce %50 dim=1 identities=[0.000000e+00] : tile<32x32xf64> -> tile<32xf64> 
    (%52: tile<f64>, %53: tile<f64>) {
      %54 = addf %52, %53  : tile<f64>
      yield %54 : tile<f64>
    }
    %55 = reshape %51 : tile<32xf64> -> tile<32x1xf64>
    %56 = addf %47, %55  : tile<32x1xf64>
    %57 = broadcast %46 : tile<32x1xf64> -> tile<32x32xf64>
    %58 = mulf %22, %57  : tile<32x32xf64>
    %59 = mmaf %50, %32, %58 : tile<32x32xf64>, tile<32x32xf64>, tile<32x32xf64>
    continue %44, %56, %59, %33 : tile<32x1xf64>, tile<32x1xf64>, tile<32x32xf64>, token
  }
  %60 = broadcast %16 : tile<32x1xf64> -> tile<32x32xf64>
  %61 = divf %17, %60  : tile<32x32xf64>
  %62 = assume div_by<16>, %arg3 : tile<ptr<f64>>
  %63 = make_tensor_view %62, shape = [64, 32], strides = [32, 1] : tensor_view<64x32xf64, strides=[32,1]>
  %64 = make_partition_view %63 : partition_view<tile=(32x32), padding_value = zero, tensor_view<64x32xf64, strides=[32,1]>>
  %65 = store_view_tko weak %61, %64[%1, %2] token = %18 : tile<32x32xf64>, partition_view<tile=(32x32), padding_value = zero, tensor_view<64x32xf64, strides=[32,1]>>, tile<i32> -> token
  return
}
